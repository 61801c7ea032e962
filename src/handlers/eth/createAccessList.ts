import { data, quantity } from '../../format/hex.js'
import { knownBlock, toSelector } from '../block-param.js'
import { parseCallRequest } from '../parse-call-request.js'
import { parseStateOverrides } from '../parse-state-overrides.js'
import type { Handler } from '../context.js'

/**
 * eth_createAccessList [transaction, block = latest, stateOverrides?]: the addresses and slots the call touches (an EIP-2930 list to send it with) and the
 * gas it uses with that list, on the block's state (pending flashblock state under `pending` on
 * /flashblocks). A reverting or failing call still answers its list, with geth's text in `error`.
 */
export const eth_createAccessList: Handler<'eth_createAccessList'> = async ([transaction, block, overrides], ctx) => {
  const request = parseCallRequest(transaction)
  const state = overrides ? parseStateOverrides(overrides) : undefined
  const at = await knownBlock(ctx, toSelector(block))
  const result = await ctx.execution.createAccessList(at, request, state)
  return {
    accessList: result.accessList.map((entry) => ({
      address: data(entry.address),
      storageKeys: entry.storageKeys.map(data),
    })),
    gasUsed: quantity(result.gasUsed),
    ...(result.error === undefined ? {} : { error: result.error }),
  }
}
