/** Time travel: evm_increaseTime and evm_setNextBlockTimestamp (the simulated L1 origin follows block time). */
import type { Handler } from '../context.js'
import { devNode, devQuantity, U64_MAX } from '../dev-node.js'

export const evm_increaseTime: Handler<'evm_increaseTime'> = async ([seconds], ctx) =>
  Number(await devNode(ctx).increaseTime(devQuantity(seconds, 0, 'seconds', U64_MAX)))

export const evm_setNextBlockTimestamp: Handler<'evm_setNextBlockTimestamp'> = async ([timestamp], ctx) => {
  await devNode(ctx).setNextBlockTimestamp(devQuantity(timestamp, 0, 'timestamp', U64_MAX))
  return null
}
