/**
 * How the interpreter is used in this process: calls it answered, and calls it handed to the reference path
 * by reason (an opcode or a situation it does not run). Read at scrape time (metrics/sources.ts) and by the
 * tests; a fallback is never silent.
 */
export const interpreterStats = {
  /** Calls whose outermost frame the interpreter ran to the end. */
  answered: 0,
  /** Calls restarted on the reference path, by reason. */
  fallbacks: new Map<string, number>(),
}

export function countFallback(reason: string): void {
  interpreterStats.fallbacks.set(reason, (interpreterStats.fallbacks.get(reason) ?? 0) + 1)
}
