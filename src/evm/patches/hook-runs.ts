/**
 * How often each of the call path's hooks has run in this process: the hooks test runs a call through the
 * fast path and reads these, so a hook that is installed but no longer reached (a renamed method the EVM
 * stopped calling) fails a test instead of leaving the call on shipped code. Counted where it costs least
 * (per frame or per call; per opcode only where the hook itself is the opcode).
 */
export const hookRuns = {
  /** Frames run by the await-free loop (sync-steps.ts). */
  awaitFreeLoop: 0,
  /** Opcodes stepped without a promise (sync-steps.ts). */
  syncSteps: 0,
  /** Dynamic gas computed without a promise (sync-gas.ts). */
  syncGas: 0,
  /** Jump analyses served from the per-code cache (jump-analysis.ts). */
  jumpAnalysis: 0,
  /** Frames entered without the runState copy (lean-frames.ts). */
  leanFrames: 0,
  /** Word opcodes run by this folder's handlers (word-opcodes.ts). */
  wordOpcodes: 0,
  /** Calls whose outermost frame skipped runCall (top-frame.ts). */
  topFrame: 0,
  /** eth_simulateV1 frames given to the interpreter inside runTx (interpreted-frames.ts). */
  interpretedFrames: 0,
  /** Block building's frames given to the interpreter inside runTx and a deposit's runCall (interpreted-frames.ts). */
  blockFrames: 0,
  /** A follower's re-executed frames given to the interpreter inside runTx and a deposit's runCall (interpreted-frames.ts). */
  reexecutedFrames: 0,
  /** Calls whose warm set was set whole (warm-set.ts). */
  warmSet: 0,
  /** Clock checks of @ethereumjs's own loop under a budget (budget-steps.ts). */
  budgetSteps: 0,
}

export type HookName = keyof typeof hookRuns
