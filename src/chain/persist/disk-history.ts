/**
 * The canonical history read from the data directory on demand: a block by number, its number by hash
 * and a transaction's position by hash are each one synchronous LevelDB read (~6 µs) and a decode. The newest
 * blocks (the ones reads, BLOCKHASH and the next block's parent want) stay decoded in a small LRU, so memory does
 * not grow with the chain and a restart reads the head, not the history; the transactions of the blocks in it
 * are found in memory, as reth finds those of the blocks it has not yet persisted (a wallet's first poll after
 * its block is sealed: a LevelDB read costs more as the database grows, 2.0 µs in a fresh one, 2.5-3.3 after
 * 30 000 transfers). Positions found on disk are kept (DISK_TX_POSITIONS_CACHED). A block's senders are read
 * beside it, not recovered from their signatures (a block written before they were stored has them recovered).
 * Persistence.sealed writes a block and its indexes before the sequencer hands it to `add`.
 */
import type { Common } from '@ethereumjs/common'
import type { BlockRecord } from '../../domain/types.js'
import type { BlockHistory, TxPosition } from '../store.js'
import { decodeBlock } from './codec.js'
import type { Level } from './db.js'
import { blockKey, decodePosition, hashKey, range, sendersKey, txKey } from './keys.js'
import { DISK_RECENT_BLOCKS_CACHED, DISK_TX_POSITIONS_CACHED } from '../../limits.js'
import { BoundedMap } from '../../evm/bounded-map.js'
import { byteKey } from '../../domain/map-keys.js'

export class DiskHistory implements BlockHistory {
  private readonly recent = new Map<bigint, BlockRecord>()
  /** The positions of the transactions of the blocks in `recent`, by byteKey of their hash. */
  private readonly recentTxs = new Map<string, TxPosition>()
  /** Positions found on disk (never a miss: the transaction may be mined later). */
  private readonly positions = new BoundedMap<TxPosition>(DISK_TX_POSITIONS_CACHED)
  private head: BlockRecord

  constructor(
    private readonly db: Level,
    private readonly common: Common,
    head: BlockRecord,
  ) {
    this.head = head
    this.remember(head)
  }

  /** The newest block on disk (undefined in a fresh directory). */
  static async readHead(db: Level, common: Common): Promise<BlockRecord | undefined> {
    const [key] = await db.keys({ ...range('block'), reverse: true, limit: 1 }).all()
    return key && DiskHistory.read(db, common, decodePosition(key.subarray(1)).number)
  }

  /** Block `number` as stored, with the senders stored beside it when there are any. */
  static read(db: Level, common: Common, number: bigint): BlockRecord | undefined {
    const value = db.getSync(blockKey(number))
    return value && decodeBlock(value, common, db.getSync(sendersKey(number)))
  }

  get height(): bigint {
    return this.head.number
  }

  latest(): BlockRecord {
    return this.head
  }

  add(block: BlockRecord): void {
    this.head = block
    this.remember(block)
  }

  byNumber(number: bigint): BlockRecord | undefined {
    const cached = this.recent.get(number)
    if (cached) {
      this.remember(cached) // most recently used last
      return cached
    }
    const block = DiskHistory.read(this.db, this.common, number)
    if (block) this.remember(block)
    return block
  }

  numberOf(hash: Uint8Array): bigint | undefined {
    const value = this.db.getSync(hashKey(hash))
    return value && decodePosition(value).number
  }

  position(txHash: Uint8Array): TxPosition | undefined {
    const key = byteKey(txHash)
    const known = this.recentTxs.get(key) ?? this.positions.get(key)
    if (known) return known
    const value = this.db.getSync(txKey(txHash))
    const position = value && decodePosition(value)
    if (position) this.positions.set(key, position)
    return position
  }

  private remember(block: BlockRecord): void {
    const kept = this.recent.get(block.number)
    this.recent.delete(block.number)
    this.recent.set(block.number, block)
    if (kept === block) return
    if (kept) this.forgetTxs(kept) // a record of a block already kept (the genesis at start-up)
    const { number, txs } = block
    for (let index = 0; index < txs.length; index++) this.recentTxs.set(byteKey(txs[index]!.hash), { number, index })
    if (this.recent.size > DISK_RECENT_BLOCKS_CACHED) {
      const oldest = this.recent.values().next().value!
      this.recent.delete(oldest.number)
      this.forgetTxs(oldest)
    }
  }

  private forgetTxs(block: BlockRecord): void {
    for (const tx of block.txs) this.recentTxs.delete(byteKey(tx.hash))
  }
}
