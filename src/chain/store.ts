/**
 * The canonical chain: every sealed block by number and hash, transaction hash -> position, receipts and
 * logs (inside the BlockRecords), and each block's state root (in its header; `stateAt(vm, root)` reads
 * any past block whose state is kept).
 *
 * Where the history lives is a BlockHistory: in memory (no --data-dir, like anvil: the heap grows with
 * every block, about 6.5 KB per transaction and 5 KB per empty block, measured with bench/chain-memory.ts)
 * or in the data directory, read on demand behind a small cache of recent blocks (persist/disk-history.ts),
 * so neither memory nor restart time grows with the chain.
 */
import { equalsBytes } from '@ethereumjs/util'
import { keyOf } from '../domain/block-record.js'
import type { BlockRecord, TxLocation } from '../domain/types.js'

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

/** The whole history in memory: the chain without --data-dir (from block `base`: a fork's starts at its fork block). */
class MemoryHistory implements BlockHistory {
  private readonly blocks: BlockRecord[] = []
  private readonly byHash = new Map<string, bigint>()
  private readonly txIndex = new Map<string, TxPosition>()

  constructor(private readonly base = 0n) {}

  get height(): bigint {
    return this.base + BigInt(this.blocks.length - 1)
  }

  latest(): BlockRecord {
    return this.blocks[this.blocks.length - 1]
  }

  add(block: BlockRecord): void {
    this.blocks.push(block)
    this.byHash.set(keyOf(block.hash), block.number)
    for (let i = 0; i < block.txs.length; i++)
      this.txIndex.set(keyOf(block.txs[i].hash), { number: block.number, index: i })
  }

  byNumber(number: bigint): BlockRecord | undefined {
    const at = number - this.base
    return at >= 0n && at < BigInt(this.blocks.length) ? this.blocks[Number(at)] : undefined
  }

  numberOf(hash: Uint8Array): bigint | undefined {
    return this.byHash.get(keyOf(hash))
  }

  position(txHash: Uint8Array): TxPosition | undefined {
    return this.txIndex.get(keyOf(txHash))
  }

  truncate(height: bigint): void {
    while (BigInt(this.blocks.length - 1) > height) {
      const block = this.blocks.pop()!
      this.byHash.delete(keyOf(block.hash))
      for (const tx of block.txs) this.txIndex.delete(keyOf(tx.hash))
    }
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
