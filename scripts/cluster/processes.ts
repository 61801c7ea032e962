/**
 * The processes a cluster runs: redis-server and preconf-rpc services (this repository's src/cli.ts through
 * tsx), each with its output in a log file of the cluster's directory, and the waits that say they are up.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { openSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url))

/** Starts `command` with stdout and stderr appended to `<dir>/<name>.log`. */
function startLogged(dir: string, name: string, command: string, args: string[]): ChildProcess {
  const log = openSync(join(dir, `${name}.log`), 'a')
  return spawn(command, args, { cwd: REPO_ROOT, stdio: ['ignore', log, log] })
}

export function startRedis(dir: string, port: number): ChildProcess {
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no']
  return startLogged(dir, 'redis', 'redis-server', args)
}

/** A preconf-rpc service on 127.0.0.1:`port` with the given flags. */
export function startMember(dir: string, name: string, port: number, flags: string[]): ChildProcess {
  const cli = join(REPO_ROOT, 'src/cli.ts')
  const args = ['--import', 'tsx', cli, '--host', '127.0.0.1', '--port', String(port), ...flags]
  return startLogged(dir, name, process.execPath, args)
}

/**
 * Resolves once `check` is true (a check that throws is false); rejects when `child` exits first or after
 * `timeoutMs`. `stepMs`: the pause between checks (a refused connection costs next to nothing: tests that
 * start a process many times take a short one).
 */
export async function waitFor(
  what: string,
  child: ChildProcess,
  check: () => Promise<boolean>,
  timeoutMs = 120_000,
  stepMs = 100,
): Promise<void> {
  const end = Date.now() + timeoutMs
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`${what} exited (${child.exitCode ?? child.signalCode}) before it was up`)
    if (await check().catch(() => false)) return
    if (Date.now() > end) throw new Error(`${what} was not up within ${timeoutMs / 1000} s`)
    await new Promise((resolve) => setTimeout(resolve, stepMs))
  }
}

/** GET <origin>/ready's status within a second; 0 when nothing answered. */
export async function readyStatus(origin: string): Promise<number> {
  try {
    return (await fetch(`${origin}/ready`, { signal: AbortSignal.timeout(1000) })).status
  } catch {
    return 0
  }
}

export const isReady = async (origin: string) => (await readyStatus(origin)) === 200

/** True when something accepts TCP connections on 127.0.0.1:`port` (redis-server before it answers). */
export function listening(port: number): Promise<boolean> {
  return fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(1000) }).then(
    () => true,
    (err: Error) => !/ECONNREFUSED/.test(String((err.cause as Error | undefined)?.message ?? err.message)),
  )
}

/** SIGTERM, then SIGKILL if it is still there after `graceMs`; resolves when it is gone. */
export async function stopProcess(child: ChildProcess, graceMs = 5_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  child.kill('SIGCONT') // a frozen process cannot act on SIGTERM
  child.kill('SIGTERM')
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs)
  await exited
  clearTimeout(timer)
}
