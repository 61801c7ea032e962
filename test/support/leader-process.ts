/**
 * The embedded service as a separate process (src/cli.ts compiled, test/support/cli-build.ts), for tests that
 * must freeze the leader: SIGSTOP keeps its sockets open while it answers nothing, as a hung upstream does.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { compiledCli } from './cli-build.js'
import { freePort, listensOn } from './free-port.js'
import { REPO_ROOT } from './run-script.js'
import { tracked } from './children.js'

export interface LeaderProcess {
  url: string
  /** ws://127.0.0.1:<port>/ */
  wsUrl: string
  /** For freeze() (test/support/wait-for.ts), which waits until the kernel shows it stopped. */
  pid: number
  pause(): void
  resume(): void
  close(): Promise<void>
}

export async function startLeaderProcess(args: string[] = []): Promise<LeaderProcess> {
  for (let attempt = 1; ; attempt++) {
    const started = await startOnce(args)
    if (started) return started
    // another process took the port before the child bound it (and answered in its place): again on a new one
    if (attempt === 5) throw new Error('the leader process never held the port it was given (5 tries)')
  }
}

async function startOnce(args: string[]): Promise<LeaderProcess | undefined> {
  const port = await freePort()
  const child: ChildProcess = tracked(
    spawn(
      process.execPath,
      [await compiledCli(), '--port', String(port), '--host', '127.0.0.1', '--rate-limit', '0', '--quiet', ...args],
      { cwd: REPO_ROOT, stdio: 'ignore' },
    ),
  )
  const url = `http://127.0.0.1:${port}/`
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  for (;;) {
    try {
      await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}',
      })
      break
    } catch (err) {
      // no cap of its own: a busy machine starts it slowly, and the test's (or hook's) timeout bounds the wait
      if (child.exitCode !== null || child.signalCode !== null) {
        child.kill('SIGKILL')
        throw new Error(`the leader process did not answer on ${url}: ${(err as Error).message}`)
      }
      // a refused connection costs next to nothing: a short step, as the crash test starts it 23 times
      await new Promise((r) => setTimeout(r, 20))
    }
  }
  if (!(await listensOn(child.pid!, port))) {
    child.kill('SIGKILL')
    await exited
    return undefined
  }
  return {
    url,
    wsUrl: `ws://127.0.0.1:${port}/`,
    pid: child.pid!,
    pause: () => child.kill('SIGSTOP'),
    resume: () => child.kill('SIGCONT'),
    close: async () => {
      if (child.exitCode !== null) return
      child.kill('SIGCONT')
      child.kill('SIGKILL')
      await exited
    },
  }
}
