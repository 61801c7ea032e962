/**
 * eth_simulateV1 in domain form: the blocks to simulate (each with its header overrides, state overrides and
 * calls) and what each simulated block and call came to. The wire shapes are the generated SimulatePayload
 * and SimulatedBlock; the handler converts at the boundary.
 */
import type { BlockOverrideSpec } from './block-overrides.js'
import type { CallRequest, StateOverrideSpec } from './call-request.js'
import type { BlockRecord, LogRecord } from './types.js'

export interface SimulateBlockSpec {
  /** The simulated block's header fields given by the caller; the rest are derived. */
  blockOverrides: BlockOverrideSpec
  stateOverrides?: StateOverrideSpec
  calls: CallRequest[]
}

export interface SimulateRequest {
  blocks: SimulateBlockSpec[]
  /** ETH moved by value (calls, CALL with value, SELFDESTRUCT) reported as ERC-7528 Transfer logs. */
  traceTransfers: boolean
  /** Nonces, base fee and balances checked as for a real transaction (not only as eth_call does). */
  validation: boolean
}

/** How one call ended: a revert (code 3 with its data) or another EVM failure (-32015). */
interface SimulatedCallError {
  code: number
  message: string
  data?: Uint8Array
}

export interface SimulatedCall {
  returnData: Uint8Array
  /** The call's logs (none when it failed), with transfer pseudo-logs when asked for. */
  logs: LogRecord[]
  gasUsed: bigint
  /** Gas used before the refund. */
  maxUsedGas: bigint
  status: 0 | 1
  error?: SimulatedCallError
}

export interface SimulatedBlock {
  block: BlockRecord
  calls: SimulatedCall[]
}
