/**
 * eth_call's third parameter (the generated StateOverrides) read into its domain form; `state` and
 * `stateDiff` for one account is geth's error.
 */
import type { AccountOverrideSpec, StateOverrideSpec } from '../domain/call-request.js'
import { InvalidParamsError, StateAndStateDiffError } from '../errors.js'
import { parseData, parseQuantity } from '../format/hex.js'
import type { StateOverrides } from '../../generated/types.js'

export function parseStateOverrides(wire: StateOverrides): StateOverrideSpec {
  const overrides: StateOverrideSpec = new Map()
  for (const [address, o] of Object.entries(wire)) {
    if (o.state && o.stateDiff) throw new StateAndStateDiffError(address)
    const account: AccountOverrideSpec = {}
    if (o.balance !== undefined) account.balance = parseQuantity(o.balance)
    if (o.nonce !== undefined) account.nonce = parseQuantity(o.nonce)
    if (o.code !== undefined) account.code = parseData(o.code)
    if (o.state) account.state = slots(o.state)
    if (o.stateDiff) account.stateDiff = slots(o.stateDiff)
    if (o.movePrecompileToAddress) account.movePrecompileTo = parseData(o.movePrecompileToAddress)
    overrides.set(address.toLowerCase(), account)
  }
  return overrides
}

const WORD = /^0x[0-9a-fA-F]{1,64}$/

function slots(map: Record<string, unknown>): Map<bigint, bigint> {
  return new Map(
    Object.entries(map).map(([slot, value]) => {
      if (!WORD.test(slot) || typeof value !== 'string' || !WORD.test(value)) {
        throw new InvalidParamsError(
          `invalid argument 2 (stateOverrides): storage ${JSON.stringify(slot)}: ${JSON.stringify(value)} is not a 32-byte slot and value`,
        )
      }
      return [BigInt(slot), BigInt(value)]
    }),
  )
}
