/**
 * eth_simulateV1's payload (the generated SimulatePayload) read into its domain form, with geth's checks
 * that come before any block is built: at least one block, at most 256, at most 5 000 calls in one block
 * and 10 000 in all.
 */
import type { SimulateRequest } from '../domain/simulate.js'
import { SimulateClientLimitError, SimulateEmptyInputError } from '../errors.js'
import { MAX_SIMULATE_BLOCKS, MAX_SIMULATE_CALLS, MAX_SIMULATE_CALLS_PER_BLOCK } from '../limits.js'
import type { SimulatePayload } from '../../generated/types.js'
import { parseBlockOverrides } from './block-overrides.js'
import { parseCallRequest } from './parse-call-request.js'
import { parseStateOverrides } from './parse-state-overrides.js'

export function parseSimulateRequest(payload: SimulatePayload): SimulateRequest {
  const blocks = payload.blockStateCalls
  if (blocks.length === 0) throw new SimulateEmptyInputError()
  if (blocks.length > MAX_SIMULATE_BLOCKS) throw new SimulateClientLimitError('too many blocks')
  let total = 0
  for (const block of blocks) {
    const calls = block.calls?.length ?? 0
    if (calls > MAX_SIMULATE_CALLS_PER_BLOCK)
      throw new SimulateClientLimitError(`too many calls in block: ${calls} > ${MAX_SIMULATE_CALLS_PER_BLOCK}`)
    total += calls
    if (total > MAX_SIMULATE_CALLS)
      throw new SimulateClientLimitError(`too many calls: ${total} > ${MAX_SIMULATE_CALLS}`)
  }
  return {
    blocks: blocks.map((block) => ({
      blockOverrides: parseBlockOverrides(block.blockOverrides ?? {}),
      stateOverrides: block.stateOverrides ? parseStateOverrides(block.stateOverrides) : undefined,
      calls: (block.calls ?? []).map(parseCallRequest),
    })),
    traceTransfers: payload.traceTransfers ?? false,
    validation: payload.validation ?? false,
  }
}
