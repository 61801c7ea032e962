import type { Eventually } from '../../capabilities/eventually.js'
import type { BlockRecord } from '../../domain/types.js'
import {
  FeeHistoryBeyondHeadError,
  HeaderNotFoundError,
  InvalidParamsError,
  InvalidRewardPercentileError,
} from '../../errors.js'
import { feeHistory } from '../../fees/fee-history.js'
import { MAX_FEE_HISTORY_BLOCKS } from '../../limits.js'
import { quantity } from '../../format/hex.js'
import { toSelector, type BlockParam } from '../block-param.js'
import type { Handler, HandlerContext } from '../context.js'

/**
 * eth_feeHistory [blockCount, newestBlock, rewardPercentiles?], as geth: the count is clamped to 1024 and to
 * the blocks that exist; percentiles must rise within [0, 100]; a newest block past the head errors.
 */
export const eth_feeHistory: Handler<'eth_feeHistory'> = async ([blockCount, newestBlock, rewardPercentiles], ctx) => {
  const percentiles = checkPercentiles(rewardPercentiles ?? [])
  let count = toCount(blockCount)
  if (count === 0n) return { oldestBlock: '0x0', baseFeePerGas: [], gasUsedRatio: [] }
  if (count > BigInt(MAX_FEE_HISTORY_BLOCKS)) count = BigInt(MAX_FEE_HISTORY_BLOCKS)
  const newest = await newestOf(ctx, newestBlock)
  if (count > newest.number + 1n) count = newest.number + 1n
  const older: Eventually<BlockRecord | undefined>[] = []
  for (let n = newest.number - count + 1n; n < newest.number; n++) older.push(ctx.resolver.block(n))
  const blocks = [...((await Promise.all(older)) as BlockRecord[]), newest]
  const history = feeHistory(blocks, percentiles)
  return {
    oldestBlock: quantity(history.oldestBlock),
    ...(history.reward ? { reward: history.reward.map((row) => row.map(quantity)) } : {}),
    baseFeePerGas: history.baseFeePerGas.map(quantity),
    gasUsedRatio: history.gasUsedRatio,
    baseFeePerBlobGas: history.baseFeePerBlobGas.map(quantity),
    blobGasUsedRatio: history.blobGasUsedRatio,
  }
}

/** geth takes a hex quantity or a decimal number (math.HexOrDecimal64). */
function toCount(value: unknown): bigint {
  try {
    if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return BigInt(value)
    if (typeof value === 'string') return value.startsWith('0x') ? BigInt(value) : BigInt(value)
  } catch {}
  throw new InvalidParamsError(`invalid argument 0 (blockCount): expected a block count, got ${JSON.stringify(value)}`)
}

async function newestOf(ctx: HandlerContext, param: BlockParam): Promise<BlockRecord> {
  const selector = toSelector(param)
  const block = await ctx.resolver.block(selector)
  if (block) return block
  const head = (await ctx.resolver.pendingBlock()).number
  if (typeof selector === 'bigint' && selector > head) {
    throw new FeeHistoryBeyondHeadError(selector, head)
  }
  throw new HeaderNotFoundError()
}

function checkPercentiles(values: readonly number[]): number[] {
  values.forEach((p, i) => {
    if (!(p >= 0 && p <= 100)) throw new InvalidRewardPercentileError(`${p}`)
    if (i > 0 && p < values[i - 1]!) {
      throw new InvalidRewardPercentileError(`#${i - 1}:${values[i - 1]} > #${i}:${p}`)
    }
  })
  return [...values]
}
