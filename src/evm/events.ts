/**
 * A small typed event emitter. The chain publishes through it; a listener that throws is reported and
 * skipped so that no subscriber can stall the sequencer.
 */
import type { BlockRecord, Flashblock, LogRecord, TxRecord } from '../domain/types.js'

export interface ChainEvents {
  /** Every flashblock, after the pending store applied it. */
  flashblock: [flashblock: Flashblock]
  /** Every sealed block, after the canonical store holds it and the pending store let go of it. */
  block: [block: BlockRecord]
  /** Canonical blocks an upstream reorg replaced (follower mode), ascending: their logs go out `removed: true`. */
  removedBlocks: [blocks: readonly BlockRecord[]]
  /** Preconfirmed logs that will not become canonical (follower mode): pendingLogs gets them `removed: true`. */
  removedPendingLogs: [logs: readonly LogRecord[]]
  /** Transactions whose receipts a feed frame carried, served before re-execution (follower mode). */
  earlyReceipts: [txs: readonly TxRecord[]]
  /** A transaction the pool accepted (newPendingTransactions). */
  pendingTransaction: [tx: TxRecord]
  /** A transaction the pool gave up on (it failed at execution: nonce or balance changed). */
  droppedTransaction: [tx: TxRecord, reason: string]
}

type Listener<A extends unknown[]> = (...args: A) => void

export class TypedEmitter<E extends { [K in keyof E]: unknown[] }> {
  private readonly listeners: { [K in keyof E]?: Set<Listener<E[K]>> } = {}

  constructor(private readonly onListenerError: (event: string, err: unknown) => void = () => {}) {}

  /** Adds a listener; returns the function that removes it. */
  on<K extends keyof E>(event: K, listener: Listener<E[K]>): () => void {
    const set = (this.listeners[event] ??= new Set())
    set.add(listener)
    return () => this.off(event, listener)
  }

  off<K extends keyof E>(event: K, listener: Listener<E[K]>): void {
    this.listeners[event]?.delete(listener)
  }

  emit<K extends keyof E>(event: K, ...args: E[K]): void {
    const set = this.listeners[event]
    if (!set) return
    for (const listener of [...set]) {
      try {
        listener(...args)
      } catch (err) {
        this.onListenerError(String(event), err)
      }
    }
  }

  listenerCount(event: keyof E): number {
    return this.listeners[event]?.size ?? 0
  }
}
