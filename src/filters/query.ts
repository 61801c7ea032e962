/**
 * eth_getLogs over one endpoint: the filter object read into criteria and bounds, the bounds resolved
 * against this endpoint's chain view (`pending` on /flashblocks is the preconfirmed block, so a range
 * ending there includes its logs), the range checked against the limits, and the blocks scanned.
 */
import {
  BlockHashWithRangeError,
  BlockRangeBeyondHeadError,
  InvalidBlockRangeError,
  TooManyTopicsError,
  UnknownBlockError,
} from '../errors.js'
import { parseData, parseQuantity, type Hex } from '../format/hex.js'
import type { BlockRecord, LogRecord } from '../domain/types.js'
import type { BlockReader } from '../capabilities/read.js'
import { MAX_TOPICS } from '../limits.js'
import { checkBlockRange, collectLogs } from './collect.js'
import { createCriteria, type LogCriteria, type TopicFilter } from './criteria.js'
import type { BlockBound } from './registry.js'

/** The filter object of eth_getLogs / eth_newFilter as the validators let it through. */
export type WireLogFilter = {
  fromBlock?: string | null
  toBlock?: string | null
  address?: Hex | readonly Hex[] | null
  topics?: TopicFilter | null
  blockHash?: string | null
}

export type LogQuery = {
  criteria: LogCriteria
  blockHash?: Uint8Array
  fromBlock: BlockBound
  toBlock: BlockBound
}

export function parseLogFilter(wire: WireLogFilter | null | undefined): LogQuery {
  const filter = wire ?? {}
  if ((filter.topics?.length ?? 0) > MAX_TOPICS) throw new TooManyTopicsError()
  const criteria = createCriteria(filter.address, filter.topics)
  if (filter.blockHash != null) {
    if (filter.fromBlock != null || filter.toBlock != null) {
      throw new BlockHashWithRangeError()
    }
    return { criteria, blockHash: parseData(filter.blockHash), fromBlock: 'latest', toBlock: 'latest' }
  }
  return { criteria, fromBlock: toBound(filter.fromBlock), toBlock: toBound(filter.toBlock) }
}

function toBound(value: string | null | undefined): BlockBound {
  if (value == null) return 'latest'
  if (value === 'latest' || value === 'pending' || value === 'earliest' || value === 'safe' || value === 'finalized')
    return value
  return parseQuantity(value)
}

/** The block number a bound names on this endpoint now. */
async function boundNumber(resolver: BlockReader, bound: BlockBound): Promise<bigint> {
  if (typeof bound === 'bigint') return bound
  if (bound === 'earliest') return 0n
  return resolver.blockNumber(bound === 'pending' ? 'pending' : 'latest')
}

/** Runs a log query; -32602 `invalid block range params` when from > to, -32005 past a limit. */
export async function queryLogs(resolver: BlockReader, query: LogQuery): Promise<LogRecord[]> {
  if (query.blockHash) {
    const block = await resolver.blockByHash(query.blockHash)
    if (!block) throw new UnknownBlockError()
    return collectLogs([block], query.criteria)
  }
  const from = await boundNumber(resolver, query.fromBlock)
  const to = await boundNumber(resolver, query.toBlock)
  if (from > to) throw new InvalidBlockRangeError()
  checkBlockRange(from, to)
  // geth: an explicit end past the head is an error, not an empty answer
  if (typeof query.toBlock === 'bigint' && to > (await resolver.blockNumber('pending')))
    throw new BlockRangeBeyondHeadError()
  return collectLogs(await blocksBetween(resolver, from, to), query.criteria)
}

/** Blocks from..to as this endpoint shows them, stopping at its head (the pending block on /flashblocks). */
export async function blocksBetween(resolver: BlockReader, from: bigint, to: bigint): Promise<BlockRecord[]> {
  const blocks: BlockRecord[] = []
  for (let n = from; n <= to; n++) {
    const block = await resolver.block(n)
    if (!block) break
    blocks.push(block)
  }
  return blocks
}
