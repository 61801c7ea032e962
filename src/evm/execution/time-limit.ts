/**
 * A request's time limit as a race (withTimeout). Every eth_call races one, and a Node timer per call (a
 * Timeout object, its list insert and unenroll, Promise.race's promises) was ~5 µs of a call whose run
 * takes ~30: the limits of one length are kept in a queue instead, in the order they were set, which is
 * their deadlines' order too, under one timer for the oldest limit still waiting.
 */
import { ExecutionTimeoutError } from '../../errors.js'

/** Past 2^31-1 ms Node fires a timer at once: a limit that long is none. */
const MAX_TIMER_MS = 2 ** 31 - 1

interface Waiter {
  /** performance.now() time. */
  readonly deadline: number
  /** Undefined once the race is decided. */
  fail: ((err: Error) => void) | undefined
}

/** The waiting races of one limit length, oldest first, and the timer of the oldest. */
class Lane {
  private readonly waiting: Waiter[] = []
  private head = 0
  private timer: NodeJS.Timeout | undefined
  /** Races not yet decided: the timer keeps the process alive only while there are some, as a timer per race did. */
  private live = 0

  constructor(private readonly ms: number) {}

  add(waiter: Waiter): void {
    this.waiting.push(waiter)
    if (this.live++ === 0) this.timer?.ref()
    if (this.timer === undefined) this.arm(this.ms)
  }

  done(waiter: Waiter): void {
    waiter.fail = undefined
    if (--this.live === 0) this.timer?.unref()
  }

  private arm(ms: number): void {
    this.timer = setTimeout(() => this.expire(), ms)
    if (this.live === 0) this.timer.unref()
  }

  /** Fails the races past their deadline, forgets the decided ones and arms the timer for the oldest left. */
  private expire(): void {
    this.timer = undefined
    const now = performance.now()
    const { waiting } = this
    for (; this.head < waiting.length; this.head++) {
      const waiter = waiting[this.head]!
      if (waiter.fail === undefined) continue
      if (waiter.deadline > now) break
      const fail = waiter.fail
      this.done(waiter)
      fail(new ExecutionTimeoutError(this.ms))
    }
    if (this.head === waiting.length) {
      waiting.length = 0
      this.head = 0
      return
    }
    if (this.head > 1024) {
      waiting.splice(0, this.head)
      this.head = 0
    }
    this.arm(Math.max(1, Math.ceil(waiting[this.head]!.deadline - now)))
  }
}

const lanes = new Map<number, Lane>()

/**
 * Races a promise against a time limit (0: none). The EVM's own budget (budget.ts) stops a run at its
 * deadline; this answers the caller even while the request waits on something else (an upstream's state).
 */
export function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  if (ms === 0 || ms > MAX_TIMER_MS) return work
  let lane = lanes.get(ms)
  if (lane === undefined) lanes.set(ms, (lane = new Lane(ms)))
  const decided = lane
  return new Promise<T>((resolve, reject) => {
    const waiter: Waiter = { deadline: performance.now() + ms, fail: reject }
    decided.add(waiter)
    work.then(
      (value) => {
        if (waiter.fail === undefined) return
        decided.done(waiter)
        resolve(value)
      },
      (err: unknown) => {
        if (waiter.fail === undefined) return
        decided.done(waiter)
        reject(err)
      },
    )
  })
}
