/**
 * Resolves when `emitter` (a node EventEmitter, or the chain's TypedEmitter) emits `event` (with its
 * arguments), or rejects after `timeoutMs` saying what it waited for.
 */
import { readFileSync } from 'node:fs'

// biome-ignore lint/suspicious/noExplicitAny: either emitter's listeners, whatever their arguments
type Listener = (...args: any[]) => void
interface Emitter {
  on(event: string, listener: Listener): unknown
  off(event: string, listener: Listener): unknown
}

export function nextEvent<T extends unknown[] = unknown[]>(
  emitter: Emitter,
  event: string,
  timeoutMs = 15_000,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      emitter.off(event, on)
      reject(new Error(`no '${event}' within ${timeoutMs} ms`))
    }, timeoutMs)
    const on = (...args: unknown[]) => {
      emitter.off(event, on)
      clearTimeout(timer)
      resolve(args as T)
    }
    emitter.on(event, on)
  })
}

/** Polls `check` every 20 ms until it is true, or rejects after `timeoutMs`. */
export async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 15_000): Promise<void> {
  const end = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 20))
  }
}

/**
 * SIGSTOP, then waits until the kernel shows the process stopped (state T in /proc): on a loaded machine a
 * request sent right after kill() could otherwise still be answered.
 */
export async function freeze(pid: number): Promise<void> {
  process.kill(pid, 'SIGSTOP')
  const state = () => readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0]
  await until(() => state() === 'T', `process ${pid} to stop`, 5_000)
}
