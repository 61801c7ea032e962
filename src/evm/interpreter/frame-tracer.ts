/**
 * What a tracer (execution/trace/) learns from the interpreter without per-opcode events: each child call
 * frame entered and left, each log. The outermost frame's own enter and exit are @ethereumjs's
 * `beforeMessage`/`afterMessage` events, which runCall emits around the interpreter's frame
 * (patches/interpreted-frames.ts). A tracer registers on an EVM whose outermost frames run on the
 * interpreter; a frame that goes to @ethereumjs instead calls its `fallback`, which switches it to the EVM's
 * step events before @ethereumjs runs the frame from its start.
 */
import type { ExecResult } from '@ethereumjs/evm'

/** The opcode of a child call frame, as the callTracer's `type` names it. */
export const CALL_TYPES: Record<number, string> = {
  0xf1: 'CALL',
  0xf2: 'CALLCODE',
  0xf4: 'DELEGATECALL',
  0xfa: 'STATICCALL',
}

export interface FrameTracer {
  /** A child frame of `op` (CALL_TYPES), with the fields @ethereumjs's Message for it has. */
  enter(op: number, from: Uint8Array, to: Uint8Array, value: bigint, gas: number, input: Uint8Array): void
  /** The child's end as its result says: gas used, output, and the EVM error's text when it failed. */
  exit(gasUsed: bigint, output: Uint8Array, error: string | undefined): void
  log(address: Uint8Array, topics: Uint8Array[], data: Uint8Array): void
  /**
   * An opcode reached that names an account (BALANCE, EXTCODESIZE, EXTCODECOPY, EXTCODEHASH): the 32 bytes
   * of the stack's word, as the step event's stack has it.
   */
  account?(word: Uint8Array): void
  /** SLOAD or SSTORE reached, of the frame's account: the slot's 32 bytes. */
  slot?(address: Uint8Array, slot: Uint8Array): void
}

/** A tracer of interpreted frames: its hooks, and its switch to step events for a frame @ethereumjs runs. */
export interface FrameTracing {
  tracer: FrameTracer
  /** The interpreter's frame is not the one that counts (nothing it reported stays): @ethereumjs runs it. */
  fallback(): void
  /**
   * Whether the tracer takes the interpreted frame that ended with `result`, before its writes are applied;
   * if not, it is handed back (nothing written) and `fallback` follows.
   */
  takes?(result: ExecResult): boolean
}

/** EVMs whose outermost frames run on the interpreter (interpreted-frames.ts marks them). */
const interpreted = new WeakSet<object>()
const tracings = new WeakMap<object, FrameTracing>()

export function markInterpreted(evm: object): void {
  interpreted.add(evm)
}

/**
 * Registers `tracing` on `evm` when its outermost frames run on the interpreter; whether it did (if not,
 * the tracer must take the EVM's step events itself).
 */
export function traceFrames(evm: object, tracing: FrameTracing): boolean {
  if (!interpreted.has(evm)) return false
  tracings.set(evm, tracing)
  return true
}

export function untraceFrames(evm: object): void {
  tracings.delete(evm)
}

export function tracingOf(evm: object): FrameTracing | undefined {
  return tracings.get(evm)
}
