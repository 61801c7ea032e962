import type { SimulatedBlock as RpcSimulatedBlock } from '../../../generated/types.js'
import type { SimulatedCall } from '../../domain/simulate.js'
import { formatBlockRecord } from '../../format/block.js'
import { data, quantity } from '../../format/hex.js'
import { formatLog } from '../../format/log.js'
import { knownBlock, toSelector } from '../block-param.js'
import type { Handler } from '../context.js'
import { parseSimulateRequest } from '../simulate-request.js'

/**
 * eth_simulateV1 [payload, block = latest]: blocks built on the block this endpoint names (the pending
 * flashblock state under `pending` on /flashblocks, preconfirmed transactions included), answered as
 * eth_getBlockByNumber answers blocks, each with its calls' results. Nothing is kept.
 */
export const eth_simulateV1: Handler<'eth_simulateV1'> = async ([payload, block], ctx) => {
  const request = parseSimulateRequest(payload)
  const at = await knownBlock(ctx, toSelector(block))
  const blocks = await ctx.execution.simulate(at, request)
  const full = payload.returnFullTransactions ?? false
  return blocks.map(
    (simulated) =>
      ({
        ...formatBlockRecord(simulated.block, full),
        calls: simulated.calls.map(formatCall),
      }) as RpcSimulatedBlock,
  )
}

function formatCall(call: SimulatedCall) {
  return {
    returnData: data(call.returnData),
    logs: call.logs.map((log) => formatLog(log)),
    gasUsed: quantity(call.gasUsed),
    maxUsedGas: quantity(call.maxUsedGas),
    status: quantity(call.status),
    ...(call.error
      ? {
          error: {
            message: call.error.message,
            code: call.error.code,
            ...(call.error.data ? { data: data(call.error.data) } : {}),
          },
        }
      : {}),
  }
}
