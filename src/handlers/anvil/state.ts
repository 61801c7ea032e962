/** State edits without a transaction (anvil_setBalance and kin, anvil_dumpState/anvil_loadState); Hardhat's hardhat_* alias them. */
import { setLengthLeft } from '@ethereumjs/util'
import { data, parseData } from '../../format/hex.js'
import type { Handler } from '../context.js'
import { devNode, devQuantity, U64_MAX } from '../dev-node.js'

export const anvil_setBalance: Handler<'anvil_setBalance'> = async ([address, balance], ctx) => {
  await devNode(ctx).setBalance(parseData(address), devQuantity(balance, 1, 'balance'))
  return null
}

export const anvil_addBalance: Handler<'anvil_addBalance'> = async ([address, amount], ctx) => {
  await devNode(ctx).addBalance(parseData(address), devQuantity(amount, 1, 'amount'))
  return null
}

export const anvil_setCode: Handler<'anvil_setCode'> = async ([address, code], ctx) => {
  await devNode(ctx).setCode(parseData(address), parseData(code))
  return null
}

export const anvil_setNonce: Handler<'anvil_setNonce'> = async ([address, nonce], ctx) => {
  // a nonce is 64 bits (EIP-2681)
  await devNode(ctx).setNonce(parseData(address), devQuantity(nonce, 1, 'nonce', U64_MAX))
  return null
}

export const anvil_setStorageAt: Handler<'anvil_setStorageAt'> = async ([address, slot, value], ctx) => {
  await devNode(ctx).setStorageAt(parseData(address), setLengthLeft(parseData(slot), 32), parseData(value))
  return true
}

export const anvil_dumpState: Handler<'anvil_dumpState'> = async (_params, ctx) => data(await devNode(ctx).dumpState())

export const anvil_loadState: Handler<'anvil_loadState'> = async ([state], ctx) => {
  await devNode(ctx).loadState(parseData(state))
  return true
}
