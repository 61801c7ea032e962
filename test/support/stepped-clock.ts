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
