/**
 * The canonical chain: every sealed block by number and hash, transaction hash -> position, receipts and
 * logs (inside the BlockRecords), and each block's state root (in its header; `stateAt(vm, root)` reads
 * any past block whose state is kept).
 *
 * Where the history lives is a BlockHistory: in memory (no --data-dir, like anvil: the heap grows with every
 * block, old blocks packed as bytes: see MemoryHistory)
 * or in the data directory, read on demand behind a small cache of recent blocks (persist/disk-history.ts),
 * so neither memory nor restart time grows with the chain.
 */
import type { Common } from '@ethereumjs/common'
import { equalsBytes } from '@ethereumjs/util'
import { hashId, hexKey } from '../domain/map-keys.js'
import type { BlockRecord, TxLocation } from '../domain/types.js'
import { MEMORY_RECENT_BLOCKS, MEMORY_UNPACKED_BLOCKS } from '../limits.js'
import { packBlock, unpackBlock } from './persist/codec.js'

/** A transaction's place in the canonical chain. */
export interface TxPosition {
  number: bigint
  index: number
}

export interface BlockHistory {
  readonly height: bigint
  latest(): BlockRecord
  /** Takes the next sealed block (with a data directory it is already on disk). */
  add(block: BlockRecord): void
  byNumber(number: bigint): BlockRecord | undefined
  numberOf(hash: Uint8Array): bigint | undefined
  position(txHash: Uint8Array): TxPosition | undefined
  /** Forgets the blocks above `height` (the dev node's evm_revert, anvil_reset); absent: history only grows. */
  truncate?(height: bigint): void
}

/**
 * The whole history in memory: the chain without --data-dir (from block `base`: a fork's starts at its fork
 * block). The newest MEMORY_RECENT_BLOCKS stay decoded; older ones are kept packed (codec.ts's bytes with their
 * senders: ~170 bytes for a transfer and its receipt, a few KB decoded) and decoded again when read, the last
 * few read kept. The block index is keyed by flat strings, the transaction index by small integers.
 */
class MemoryHistory implements BlockHistory {
  private readonly blocks: (BlockRecord | Uint8Array)[] = []
  private readonly byHash = new Map<string, number>()
  /**
   * Transaction hash -> its ordinal (how many came before it), keyed by hashId: two small integers an entry,
   * no string and no heap number per transaction (a hex key and a packed position held ~100 bytes and two heap
   * objects more each: 180 000 an hour at 50 tx/s). A hash whose id another has taken is kept by its hex.
   */
  private readonly txIds = new Map<number, number>()
  private readonly txShared = new Map<string, number>()
  /** The ordinal of each block's first transaction (of blocks[i]'s). */
  private readonly firstTx: number[] = []
  private txCount = 0
  private readonly unpacked = new Map<number, BlockRecord>()
  private common?: Common

  constructor(private readonly base = 0n) {}

  get height(): bigint {
    return this.base + BigInt(this.blocks.length - 1)
  }

  latest(): BlockRecord {
    return this.blocks[this.blocks.length - 1] as BlockRecord
  }

  add(block: BlockRecord): void {
    this.common ??= block.header.common
    this.blocks.push(block)
    this.byHash.set(hexKey(block.hash), Number(block.number))
    const first = this.txCount
    this.firstTx.push(first)
    this.txCount += block.txs.length
    for (let i = 0; i < block.txs.length; i++) {
      const id = hashId(block.txs[i].hash)
      if (this.txIds.has(id)) this.txShared.set(hexKey(block.txs[i].hash), first + i)
      else this.txIds.set(id, first + i)
    }
    const old = this.blocks[this.blocks.length - 1 - MEMORY_RECENT_BLOCKS]
    // an imported block's withdrawals and uncles are not in the packed form: such a block stays decoded
    if (old && !(old instanceof Uint8Array) && !old.withdrawals && !old.uncles)
      this.blocks[this.blocks.length - 1 - MEMORY_RECENT_BLOCKS] = packBlock(old)
  }

  byNumber(number: bigint): BlockRecord | undefined {
    const at = number - this.base
    if (at < 0n || at >= BigInt(this.blocks.length)) return undefined
    const kept = this.blocks[Number(at)]!
    if (!(kept instanceof Uint8Array)) return kept
    let block = this.unpacked.get(Number(at))
    if (!block) {
      block = unpackBlock(kept, this.common!)
      this.unpacked.set(Number(at), block)
      if (this.unpacked.size > MEMORY_UNPACKED_BLOCKS) this.unpacked.delete(this.unpacked.keys().next().value!)
    }
    return block
  }

  /** Where the transaction of this ordinal is: the last block whose first ordinal is not past it. */
  private at(ordinal: number): TxPosition {
    let low = 0
    let high = this.firstTx.length - 1
    while (low < high) {
      const mid = (low + high + 1) >> 1
      if (this.firstTx[mid]! <= ordinal) low = mid
      else high = mid - 1
    }
    return { number: this.base + BigInt(low), index: ordinal - this.firstTx[low]! }
  }

  numberOf(hash: Uint8Array): bigint | undefined {
    const number = this.byHash.get(hexKey(hash))
    return number === undefined ? undefined : BigInt(number)
  }

  position(txHash: Uint8Array): TxPosition | undefined {
    const ordinal = this.txIds.get(hashId(txHash))
    if (ordinal !== undefined) {
      const at = this.at(ordinal)
      // the id is 31 bits of the hash: the transaction there may be another
      if (equalsBytes(this.byNumber(at.number)!.txs[at.index]!.hash, txHash)) return at
    }
    const shared = this.txShared.size === 0 ? undefined : this.txShared.get(hexKey(txHash))
    return shared === undefined ? undefined : this.at(shared)
  }

  truncate(height: bigint): void {
    this.unpacked.clear()
    while (this.height > height) {
      const block = this.byNumber(this.height)!
      const first = this.firstTx.pop()!
      this.txCount = first
      this.blocks.pop()
      this.byHash.delete(hexKey(block.hash))
      for (let i = 0; i < block.txs.length; i++) {
        const id = hashId(block.txs[i].hash)
        if (this.txIds.get(id) === first + i) this.txIds.delete(id)
        else this.txShared.delete(hexKey(block.txs[i].hash))
      }
    }
    // the newest are decoded again, as if never packed
    for (let i = Math.max(0, this.blocks.length - MEMORY_RECENT_BLOCKS); i < this.blocks.length; i++)
      this.blocks[i] = this.byNumber(this.base + BigInt(i))!
    this.unpacked.clear()
  }
}

export class CanonicalStore {
  private first: BlockRecord

  /**
   * `history` already holds genesis (and, after a restart, every block up to its head). A forked chain's
   * first block is its fork block (src/chain/fork/): the blocks below it are the upstream's.
   */
  constructor(
    genesis: BlockRecord,
    private history: BlockHistory = new MemoryHistory(genesis.number),
  ) {
    this.first = genesis
    if (history.height < genesis.number) history.add(genesis)
  }

  /** anvil_reset's re-fork (src/chain/fork/fork-mode.ts): the chain starts again at `genesis`, in memory. */
  restartAt(genesis: BlockRecord): void {
    this.first = genesis
    this.history = new MemoryHistory(genesis.number)
    this.history.add(genesis)
  }

  /** Appends the next block; numbers are dense from genesis. */
  add(block: BlockRecord): void {
    if (block.number !== this.history.height + 1n) {
      throw new Error(`block ${block.number} is not the next canonical block (${this.history.height + 1n})`)
    }
    this.history.add(block)
  }

  get height(): bigint {
    return this.history.height
  }

  latest(): BlockRecord {
    return this.history.latest()
  }

  genesis(): BlockRecord {
    return this.first
  }

  byNumber(number: bigint): BlockRecord | undefined {
    if (number < this.first.number || number > this.height) return undefined
    return number === this.first.number ? this.first : this.history.byNumber(number)
  }

  blockByHash(hash: Uint8Array): BlockRecord | undefined {
    const number = this.history.numberOf(hash)
    const block = number === undefined ? undefined : this.byNumber(number)
    return block && equalsBytes(block.hash, hash) ? block : undefined
  }

  tx(hash: Uint8Array): TxLocation | undefined {
    const at = this.history.position(hash)
    const block = at && this.byNumber(at.number)
    if (!at || !block) return undefined
    return { block, index: at.index, tx: block.txs[at.index], receipt: block.receipts[at.index], pending: false }
  }

  /** Whether the history can go back (in memory; a data directory's only grows). */
  get rewindable(): boolean {
    return this.history.truncate !== undefined
  }

  /** Forgets the blocks above `height` (genesis stays); only where `rewindable`. */
  truncate(height: bigint): void {
    if (!this.history.truncate) throw new Error('this chain history cannot be rewound')
    this.history.truncate(height < 0n ? 0n : height)
  }

  /** Blocks from..to inclusive, clamped to the chain (for log queries). */
  *range(from: bigint, to: bigint): Iterable<BlockRecord> {
    const last = to < this.height ? to : this.height
    const first = this.first.number
    for (let n = from < first ? first : from; n <= last; n++) yield this.byNumber(n)!
  }
}
