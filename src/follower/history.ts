/**
 * Blocks older than the follower's cache, read from the upstream on demand: the block with full
 * transactions and its receipts in one batch, verified into a BlockRecord as the head follower's are.
 * A few recent answers are kept, since a client paging through history asks for the same block twice.
 */
import type { Common } from '@ethereumjs/common'
import type { Block, Receipt } from '../../generated/types.js'
import { keyOf } from '../domain/block-record.js'
import type { BlockRecord, TxLocation } from '../domain/types.js'
import { data, parseData, quantity } from '../format/hex.js'
import { blockFromUpstream } from './from-upstream.js'
import type { UpstreamRpc } from './upstream-rpc.js'
import { FOLLOWER_HISTORY_BLOCKS_KEPT } from '../limits.js'

export class UpstreamHistory {
  private readonly kept = new Map<string, BlockRecord>()

  constructor(
    private readonly upstream: UpstreamRpc,
    private readonly common: Common,
  ) {}

  /** Block `id` (a number or a hash) as the upstream has it, or undefined when it has none. */
  async block(id: bigint | Uint8Array): Promise<BlockRecord | undefined> {
    const key = typeof id === 'bigint' ? `n${id}` : keyOf(id)
    const known = this.kept.get(key)
    if (known) return known
    const param = typeof id === 'bigint' ? quantity(id) : data(id)
    const [json, receipts] = await this.upstream.batch([
      { method: typeof id === 'bigint' ? 'eth_getBlockByNumber' : 'eth_getBlockByHash', params: [param, true] },
      { method: 'eth_getBlockReceipts', params: [param] },
    ])
    if (!json || !receipts) return undefined
    const block = blockFromUpstream(json as Block, receipts as Receipt[], this.common)
    this.kept.set(`n${block.number}`, block)
    this.kept.set(keyOf(block.hash), block)
    while (this.kept.size > 2 * FOLLOWER_HISTORY_BLOCKS_KEPT) this.kept.delete(this.kept.keys().next().value!)
    return block
  }

  /**
   * The transaction as the upstream has it in a block, if it knows it and `wanted` takes that block's
   * number (a reader answers only for blocks it does not hold itself).
   */
  async tx(hash: Uint8Array, wanted: (blockNumber: bigint) => boolean): Promise<TxLocation | undefined> {
    const receipt = await this.upstream.call<Receipt | null>('eth_getTransactionReceipt', [data(hash)])
    if (!receipt?.blockHash || !receipt.blockNumber || !wanted(BigInt(receipt.blockNumber))) return undefined
    const block = await this.block(parseData(receipt.blockHash))
    const index = block?.txs.findIndex((t) => keyOf(t.hash) === keyOf(hash)) ?? -1
    if (!block || index < 0) return undefined
    return { block, index, tx: block.txs[index], receipt: block.receipts[index], pending: false }
  }
}
