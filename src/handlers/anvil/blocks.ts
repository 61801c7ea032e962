/** Mining on demand and the next blocks' settings (anvil_mine, timestamp interval, base fee, coinbase, min gas price). */
import { InvalidParamsError } from '../../errors.js'
import { parseData } from '../../format/hex.js'
import type { Handler } from '../context.js'
import { devNode, devQuantity, optionalQuantity, U64_MAX } from '../dev-node.js'

export const anvil_mine: Handler<'anvil_mine'> = async ([numBlocks, interval], ctx) => {
  const blocks = optionalQuantity(numBlocks, 0, 'numBlocks', U64_MAX) ?? 1n
  await devNode(ctx).mine(blocks, optionalQuantity(interval, 1, 'interval', U64_MAX))
  return null
}

export const anvil_getAutomine: Handler<'anvil_getAutomine'> = (_params, ctx) => devNode(ctx).automine

export const anvil_setBlockTimestampInterval: Handler<'anvil_setBlockTimestampInterval'> = async ([seconds], ctx) => {
  await devNode(ctx).setBlockTimestampInterval(devQuantity(seconds, 0, 'seconds', U64_MAX))
  return null
}

export const anvil_removeBlockTimestampInterval: Handler<'anvil_removeBlockTimestampInterval'> = (_params, ctx) =>
  devNode(ctx).removeBlockTimestampInterval()

export const anvil_setNextBlockBaseFeePerGas: Handler<'anvil_setNextBlockBaseFeePerGas'> = async ([baseFee], ctx) => {
  // a base fee is a 64-bit number on anvil too (it saturates; here it is refused)
  await devNode(ctx).setNextBlockBaseFee(devQuantity(baseFee, 0, 'baseFee', U64_MAX))
  return null
}

/** Refused as anvil and Hardhat refuse it on a chain with a base fee (every chain here has one). */
export const anvil_setMinGasPrice: Handler<'anvil_setMinGasPrice'> = ([gasPrice], ctx) => {
  devNode(ctx)
  devQuantity(gasPrice, 0, 'gasPrice')
  throw new InvalidParamsError('anvil_setMinGasPrice is not supported when EIP-1559 is active')
}

export const anvil_setCoinbase: Handler<'anvil_setCoinbase'> = async ([address], ctx) => {
  await devNode(ctx).setCoinbase(parseData(address))
  return null
}
