/** evm_mine and the mining mode: evm_setAutomine, evm_setIntervalMining, evm_setBlockGasLimit (anvil's evm_* names). */
import type { MineOptions } from '../../../generated/types.js'
import { InvalidParamsError } from '../../errors.js'
import { DEV_MAX_BLOCK_INTERVAL_SECONDS } from '../../limits.js'
import type { Handler } from '../context.js'
import { devNode, devQuantity, optionalQuantity, U64_MAX } from '../dev-node.js'

function mineOptions(options: MineOptions | undefined): { timestamp?: bigint; blocks: bigint } {
  if (options === undefined || options === null) return { blocks: 1n }
  if (typeof options !== 'object') return { timestamp: devQuantity(options, 0, 'options', U64_MAX), blocks: 1n }
  const timestamp = optionalQuantity(options.timestamp, 0, 'options.timestamp', U64_MAX)
  const blocks = optionalQuantity(options.blocks, 0, 'options.blocks', U64_MAX) ?? 1n
  return timestamp === undefined ? { blocks } : { timestamp, blocks }
}

export const evm_mine: Handler<'evm_mine'> = async ([options], ctx) => {
  const { timestamp, blocks } = mineOptions(options)
  await devNode(ctx).mineAt(timestamp, blocks)
  return '0x0'
}

export const evm_setAutomine: Handler<'evm_setAutomine'> = async ([enabled], ctx) => {
  await devNode(ctx).setAutomine(enabled)
  return null
}

export const evm_setIntervalMining: Handler<'evm_setIntervalMining'> = async ([seconds], ctx) => {
  const interval = devQuantity(seconds, 0, 'seconds', U64_MAX)
  if (interval > DEV_MAX_BLOCK_INTERVAL_SECONDS)
    throw new InvalidParamsError(
      `invalid argument 0 (seconds): at most ${DEV_MAX_BLOCK_INTERVAL_SECONDS} s between blocks`,
    )
  await devNode(ctx).setIntervalMining(interval)
  return null
}

export const evm_setBlockGasLimit: Handler<'evm_setBlockGasLimit'> = async ([gasLimit], ctx) => {
  const gas = devQuantity(gasLimit, 0, 'gasLimit', (1n << 63n) - 1n)
  // a block must hold its L1-info deposit and a transfer (config.ts's --gas-limit floor)
  if (gas < 21_000n) throw new InvalidParamsError(`invalid argument 0 (gasLimit): ${gas} is below 21000`)
  await devNode(ctx).setBlockGasLimit(gas)
  return true
}
