/**
 * The canonical chain: every sealed block of the run by number and hash, transaction hash -> position,
 * receipts and logs (inside the BlockRecords), and each block's state root (in its header; the trie DB
 * never prunes, so `stateAt(vm, root)` reads any past block).
 *
 * Memory: history is never pruned, so the heap grows with every block. Measured with
 * `node --expose-gc --import tsx bench/chain-memory.ts 100 100 1000` (Node 20, heap after GC): 100 blocks
 * of 100 ETH transfers to fresh accounts, 5 flashblocks each, grew the heap by 64 MB, i.e. 0.64 MB per
 * full block or 6.5 KB per transaction (decoded tx + receipt + trie nodes of the new state; before the
 * shared Common of engine.ts adoptCommon it was 18.9 KB); 1000 empty blocks cost 5.2 KB each, about
 * 19 MB per hour of idle 1 s blocks. RSS grew 138 MB over the whole run.
 */
import { keyOf } from '../domain/block-record.js'
import type { BlockRecord, TxLocation } from '../domain/types.js'

export class CanonicalStore {
  private readonly blocks: BlockRecord[] = []
  private readonly byHash = new Map<string, BlockRecord>()
  private readonly txIndex = new Map<string, { number: bigint; index: number }>()

  constructor(genesis: BlockRecord) {
    if (genesis.number !== 0n) throw new Error('the canonical store starts at genesis')
    this.add(genesis)
  }

  /** Appends the next block; numbers are dense from genesis. */
  add(block: BlockRecord): void {
    if (block.number !== BigInt(this.blocks.length)) {
      throw new Error(`block ${block.number} is not the next canonical block (${this.blocks.length})`)
    }
    this.blocks.push(block)
    this.byHash.set(keyOf(block.hash), block)
    for (let i = 0; i < block.txs.length; i++)
      this.txIndex.set(keyOf(block.txs[i].hash), { number: block.number, index: i })
  }

  get height(): bigint {
    return BigInt(this.blocks.length - 1)
  }

  latest(): BlockRecord {
    return this.blocks[this.blocks.length - 1]
  }

  genesis(): BlockRecord {
    return this.blocks[0]
  }

  byNumber(number: bigint): BlockRecord | undefined {
    return number >= 0n && number < BigInt(this.blocks.length) ? this.blocks[Number(number)] : undefined
  }

  blockByHash(hash: Uint8Array): BlockRecord | undefined {
    return this.byHash.get(keyOf(hash))
  }

  tx(hash: Uint8Array): TxLocation | undefined {
    const at = this.txIndex.get(keyOf(hash))
    if (!at) return undefined
    const block = this.blocks[Number(at.number)]
    return { block, index: at.index, tx: block.txs[at.index], receipt: block.receipts[at.index], pending: false }
  }

  /** Blocks from..to inclusive, clamped to the chain (for log queries). */
  *range(from: bigint, to: bigint): Iterable<BlockRecord> {
    const last = to < this.height ? to : this.height
    for (let n = from < 0n ? 0n : from; n <= last; n++) yield this.blocks[Number(n)]
  }
}
