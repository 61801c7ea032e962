/**
 * The embedded service as a separate process (src/cli.ts compiled, test/support/cli-build.ts), for tests that
 * must freeze the leader: SIGSTOP keeps its sockets open while it answers nothing, as a hung upstream does.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { compiledCli } from './cli-build.js'
import { waitFor } from '../../scripts/cluster/processes.js'
import { spawnOnFreePort } from './free-port.js'
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
  const cli = await compiledCli()
  const { child, port } = await spawnOnFreePort(
    'the leader process',
    (port) =>
      tracked(
        spawn(
          process.execPath,
          [cli, '--port', String(port), '--host', '127.0.0.1', '--rate-limit', '0', '--quiet', ...args],
          { cwd: REPO_ROOT, stdio: 'ignore' },
        ),
      ),
    answers,
  )
  const exited = new Promise<void>((resolve) =>
    child.exitCode !== null ? resolve() : child.once('exit', () => resolve()),
  )
  return {
    url: `http://127.0.0.1:${port}/`,
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

/** Resolves once the service on `port` answers eth_chainId; rejects when `child` exits first. */
function answers(child: ChildProcess, port: number): Promise<void> {
  const answered = () =>
    fetch(`http://127.0.0.1:${port}/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}',
    }).then(() => true)
  // short steps: the crash test starts it 23 times
  return waitFor('the leader process', child, answered, undefined, 20)
}
