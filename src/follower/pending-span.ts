/**
 * The blocks of flashblocks a follower holds above its upstream's head: each block's payloads as applied,
 * in order, and the block they built. When the upstream's block N arrives it is checked against what the
 * flashblocks built for N (base/base's reconciler: the ordered transaction hashes), and when the later
 * blocks do not sit on N they are rebuilt from their payloads on N's state (xlayer-reth and base rebuild,
 * op-reth calls any difference in hash or transactions a reorg).
 */
import { equalsBytes } from '@ethereumjs/util'
import { keyOf } from '../domain/block-record.js'
import type { BlockRecord, FlashblockPayload, LogRecord } from '../domain/types.js'

export interface SpanBlock {
  readonly number: bigint
  /** Index 0 first; only payloads the re-executor applied, so a replay is a valid sequence. */
  readonly payloads: FlashblockPayload[]
  /** The block as of its newest applied flashblock. */
  built?: BlockRecord
}

export class PendingSpan {
  private readonly blocks = new Map<bigint, SpanBlock>()

  /** Records an applied payload and the block it built, if the store took it (index 0 starts the list afresh). */
  record(payload: FlashblockPayload, built: BlockRecord | undefined): void {
    const number = payload.metadata.blockNumber
    let entry = this.blocks.get(number)
    if (payload.index === 0 || !entry) {
      entry = { number, payloads: [] }
      this.blocks.set(number, entry)
    }
    entry.payloads.push(payload)
    if (built) entry.built = built
  }

  /** A block whose sequence broke: it and every block above it can no longer be replayed. */
  forgetFrom(number: bigint): void {
    for (const n of this.blocks.keys()) if (n >= number) this.blocks.delete(n)
  }

  /** The canonical block took number `n`: what its flashblocks built, removed from the span. */
  settle(n: bigint): BlockRecord | undefined {
    const built = this.blocks.get(n)?.built
    for (const k of this.blocks.keys()) if (k <= n) this.blocks.delete(k)
    return built
  }

  /** Blocks above the head, lowest first. */
  above(height: bigint): SpanBlock[] {
    return [...this.blocks.values()].filter((b) => b.number > height).sort((a, b) => (a.number < b.number ? -1 : 1))
  }

  /** Whether the lowest block held was built on a parent other than `head` (a reorg under it). */
  offParent(head: BlockRecord): boolean {
    const lowest = this.above(head.number)[0]
    const base = lowest?.payloads[0]?.base
    if (!base) return false
    return lowest.number !== head.number + 1n || !equalsBytes(base.parentHash, head.hash)
  }

  get empty(): boolean {
    return this.blocks.size === 0
  }

  /** How many blocks the span reaches above `height` (0 when empty). */
  depth(height: bigint): bigint {
    let top = height
    for (const n of this.blocks.keys()) if (n > top) top = n
    return top - height
  }

  clear(): void {
    this.blocks.clear()
  }
}

/** Whether a canonical block holds the same transactions, in the same order, as its flashblocks built. */
export function sameTransactions(a: BlockRecord, b: BlockRecord): boolean {
  return a.txs.length === b.txs.length && a.txs.every((t, i) => keyOf(t.hash) === keyOf(b.txs[i].hash))
}

/** Preconfirmed logs of transactions the canonical block does not hold: they never became canonical. */
export function logsNotIn(built: BlockRecord, canonical: BlockRecord): LogRecord[] {
  const kept = new Set(canonical.txs.map((t) => keyOf(t.hash)))
  return built.logs.filter((log) => !kept.has(keyOf(log.transactionHash)))
}
