/**
 * performance.now() as the test says: time moves by `stepMs` at each read, and `jump(ms)` moves it at once.
 * The call budgets (sync-steps.ts) look at performance.now() every 1024 EVM steps, so under this clock a
 * budget runs out after a number of steps, not of milliseconds: the same on an idle or a busy machine.
 * Only for code without timers of its own reading the clock (an embedded chain without its sequencer
 * started); restore() puts the real clock back.
 */
import { vi } from 'vitest'

export function steppedClock(stepMs: number) {
  let now = performance.now()
  const spy = vi.spyOn(performance, 'now').mockImplementation(() => {
    now += stepMs
    return now
  })
  return {
    /** Moves the clock `ms` forward now. */
    jump(ms: number) {
      now += ms
    },
    restore: () => spy.mockRestore(),
  }
}

/**
 * performance.now() as a busy machine shows it to timers: every setTimeout callback runs `lateMs` after it
 * was due, whatever the machine's load (the clock moves on by `lateMs` just before each callback). For code
 * that plans by performance.now() and setTimeout (the sequencer); restore() puts both back.
 */
export function lateTimers(lateMs: number) {
  let offset = 0
  const realNow = performance.now.bind(performance)
  const realSetTimeout = globalThis.setTimeout
  const now = vi.spyOn(performance, 'now').mockImplementation(() => realNow() + offset)
  const timers = vi.spyOn(globalThis, 'setTimeout').mockImplementation(((
    callback: (...args: unknown[]) => void,
    ms?: number,
    ...args: unknown[]
  ) =>
    realSetTimeout(() => {
      offset += lateMs
      callback(...args)
    }, ms)) as typeof setTimeout)
  return {
    restore() {
      timers.mockRestore()
      now.mockRestore()
    },
  }
}
