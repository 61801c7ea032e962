/** Resolves when `emitter` emits `event` (with its arguments), or rejects after `timeoutMs` saying what it waited for. */
import type { EventEmitter } from 'node:events'

export function nextEvent<T extends unknown[] = unknown[]>(
  emitter: EventEmitter,
  event: string,
  timeoutMs = 15_000,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      emitter.off(event, on)
      reject(new Error(`no '${event}' within ${timeoutMs} ms`))
    }, timeoutMs)
    const on = (...args: unknown[]) => {
      clearTimeout(timer)
      resolve(args as T)
    }
    emitter.once(event, on)
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
