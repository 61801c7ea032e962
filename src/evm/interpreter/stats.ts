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
  /** Transactions of eth_simulateV1 whose outermost frame the interpreter ran inside runTx (interpreted-frames.ts). */
  simulated: 0,
  /** Those whose frame @ethereumjs ran, by reason (an opcode, or a transaction the interpreter's frame does not fit). */
  simulateFallbacks: new Map<string, number>(),
  /** Transactions and deposits of the sequencer's blocks whose outermost frame the interpreter ran (interpreted-frames.ts). */
  built: 0,
  /** Those whose frame @ethereumjs ran, by reason. */
  buildFallbacks: new Map<string, number>(),
  /** Transactions and deposits a follower re-executed (its feed's flashblocks) whose outermost frame the interpreter ran. */
  reexecuted: 0,
  /** Those whose frame @ethereumjs ran, by reason. */
  reexecuteFallbacks: new Map<string, number>(),
  /**
   * State reads of those frames the upstream-backed state did not have at hand (not yet loaded from the
   * upstream): the frame waited for them, as @ethereumjs's frame would have.
   */
  reexecuteAwaitedReads: 0,
  /** Transactions of debug_trace*'s replays and traces whose outermost frame the interpreter ran inside runTx. */
  traced: 0,
  /** Those whose frame @ethereumjs ran, by reason. */
  traceFallbacks: new Map<string, number>(),
}

export function countFallback(reason: string, into = interpreterStats.fallbacks): void {
  into.set(reason, (into.get(reason) ?? 0) + 1)
}
