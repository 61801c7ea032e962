/**
 * What the embedded chain keeps in its data directory, and when it is synced to disk:
 * - each flashblock: its trie nodes, the preimages of its new trie keys and its journal record, one synced batch, before it is published;
 * - each sealed block: the block (header, transactions, receipts), its transactions' senders (so a read recovers
 *   no signature), its last trie nodes, and the removal of its journal records and of its transactions' pool
 *   records, one synced batch, before it is published;
 * - each accepted transaction: its raw bytes, synced before the hash is answered (the pool journal).
 * The block's indexes by hash (block number, transaction position) go in the block's batch; reads come
 * from disk on demand (disk-history.ts).
 */
import type { BlockRecord, Flashblock } from '../../domain/types.js'
import type { BlockParams } from '../../evm/flash-builder.js'
import { encodeBlock, encodeSenders } from './codec.js'
import { DataDirError, type Level } from './db.js'
import { type JournalRecord, decodeJournalRecord, encodeJournalRecord, replayable } from './journal.js'
import {
  blockKey,
  encodePosition,
  hashKey,
  journalKey,
  journalRange,
  poolKey,
  range,
  sendersKey,
  txKey,
  u64,
} from './keys.js'
import type { Preimages } from './preimages.js'
import type { LevelOp, LevelTrieDB } from './trie-db.js'

const SYNC = { sync: true } as const

export class Persistence {
  constructor(
    readonly db: Level,
    readonly trie: LevelTrieDB,
    readonly preimages: Preimages,
  ) {}

  async flashblock(fb: Flashblock, params: BlockParams): Promise<void> {
    const { payloadId, timestamp, prevRandao, coinbase } = params
    const record = encodeJournalRecord({
      number: fb.metadata.blockNumber,
      index: fb.index,
      params: { payloadId, timestamp, prevRandao, coinbase },
      transactions: fb.diff.transactions,
    })
    const { ops, written } = this.trie.drain()
    ops.push(...this.preimages.drain())
    ops.push({ type: 'put', key: journalKey(fb.metadata.blockNumber, fb.index), value: record })
    await this.write(ops, `flashblock ${fb.metadata.blockNumber}.${fb.index}`)
    written()
  }

  async sealed(block: BlockRecord): Promise<void> {
    const { ops, written } = this.trie.drain()
    ops.push(...this.preimages.drain())
    ops.push({ type: 'put', key: blockKey(block.number), value: encodeBlock(block) })
    if (block.txs.length) ops.push({ type: 'put', key: sendersKey(block.number), value: encodeSenders(block) })
    ops.push({ type: 'put', key: hashKey(block.hash), value: u64(block.number) })
    block.txs.forEach((tx, i) => ops.push({ type: 'put', key: txKey(tx.hash), value: encodePosition(block.number, i) }))
    for (const key of await this.db.keys(journalRange(block.number)).all()) ops.push({ type: 'del', key })
    for (const tx of block.txs) ops.push({ type: 'del', key: poolKey(tx.hash) })
    await this.write(ops, `block ${block.number}`)
    written()
  }

  async accepted(hash: Uint8Array, raw: Uint8Array): Promise<void> {
    await this.write([{ type: 'put', key: poolKey(hash), value: raw }], 'an accepted transaction')
  }

  /** One synced batch; a failure (a full disk) names what was not published because of it. */
  private async write(ops: LevelOp[], what: string): Promise<void> {
    try {
      await this.db.batch(ops, SYNC)
    } catch (err) {
      const cause = (err as { cause?: Error }).cause?.message ?? (err as Error).message
      throw new DataDirError(`--data-dir: cannot write ${what}, so it is not published: ${cause}`)
    }
  }

  /** A dropped or replaced transaction need not come back; not synced (coming back is harmless). */
  async forget(hash: Uint8Array): Promise<void> {
    await this.db.del(poolKey(hash))
  }

  /** The journal of the block after `head`: what was preconfirmed before the process stopped. */
  async journal(head: bigint): Promise<JournalRecord[]> {
    const records: JournalRecord[] = []
    for await (const value of this.db.values(journalRange(head + 1n))) records.push(decodeJournalRecord(value))
    return replayable(records)
  }

  /** Journaled pool transactions (raw), in no particular order: the pool sorts them by nonce. */
  async pooled(): Promise<{ hash: Uint8Array; raw: Uint8Array }[]> {
    const out: { hash: Uint8Array; raw: Uint8Array }[] = []
    for await (const [key, raw] of this.db.iterator(range('pool'))) out.push({ hash: key.subarray(1), raw })
    return out
  }

  /** Journal records of blocks already sealed or abandoned (none in normal operation). */
  async dropStaleJournal(head: bigint): Promise<void> {
    const stale = await this.db.keys({ ...range('journal'), lt: journalKey(head + 1n, 0) }).all()
    const later = await this.db.keys({ gte: journalKey(head + 2n, 0), lt: range('journal').lt }).all()
    const ops = [...stale, ...later].map((key) => ({ type: 'del' as const, key }))
    if (ops.length) await this.db.batch(ops, SYNC)
  }

  close(): Promise<void> {
    return this.db.close()
  }
}
