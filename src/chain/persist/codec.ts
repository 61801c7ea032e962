/**
 * The on-disk form of a sealed block: RLP of [header, raw transactions, receipts]. A receipt keeps
 * what execution decided and no position (assembleBlock recomputes log positions), so a block read back
 * is the same BlockRecord the sequencer sealed. Transactions are stored as received and decoded again
 * on load (the hash comes back from the bytes); their senders are stored beside the block (encodeSenders,
 * under their own key: the block's encoding stays the one format 2 directories hold), so a read recovers no
 * signature (bench/old-block-read.ts: a block of 50 transfers read in 3.0 ms of CPU instead of 7.8). The
 * in-memory history packs its old blocks the same way (packBlock), with their senders.
 */
import { createBlockHeaderFromRLP } from '@ethereumjs/block'
import type { Common } from '@ethereumjs/common'
import { RLP } from '@ethereumjs/rlp'
import { createTxFromRLP } from '@ethereumjs/tx'
import { Address, bigIntToUnpaddedBytes, bytesToBigInt, bytesToUtf8, utf8ToBytes } from '@ethereumjs/util'
import { assembleBlock } from '../../domain/block-record.js'
import { DEPOSIT_TX_TYPE } from '../../domain/deposit-encoding.js'
import type { BlockRecord, ReceiptRecord, TxRecord } from '../../domain/types.js'
import { adoptCommon, callCommon } from '../../evm/chain-common.js'
import { decodeTransaction } from '../pool/admission.js'
import { decodeChainTx } from '../dev/impersonation.js'

type Nested = Uint8Array | Nested[]

const EMPTY = new Uint8Array(0)
const int = (n: bigint | number) => bigIntToUnpaddedBytes(BigInt(n))
const num = (b: Nested) => Number(bytesToBigInt(b as Uint8Array))
const big = (b: Nested) => bytesToBigInt(b as Uint8Array)

export function encodeBlock(block: BlockRecord): Uint8Array {
  return RLP.encode(blockFields(block))
}

/**
 * `senders`: encodeSenders' bytes stored with the block; without them (a block written before they were) each
 * sender is recovered from its signature, an impersonated transaction's from its marker.
 */
export function decodeBlock(bytes: Uint8Array, common: Common, senders?: Uint8Array): BlockRecord {
  const fields = RLP.decode(bytes) as Nested[]
  return blockOf(fields, common, senders && splitSenders(senders, (fields[1] as Nested[]).length))
}

/** A block's senders as stored beside it: 20 bytes each, in transaction order. */
export function encodeSenders(block: BlockRecord): Uint8Array {
  const out = new Uint8Array(20 * block.txs.length)
  block.txs.forEach((tx, i) => out.set(tx.sender, 20 * i))
  return out
}

function splitSenders(bytes: Uint8Array, count: number): Uint8Array[] {
  if (bytes.length !== 20 * count) throw new Error(`stored senders: ${bytes.length} bytes for ${count} transactions`)
  // copies, plain Uint8Arrays as the sealed records' (LevelDB hands back a Buffer)
  return Array.from({ length: count }, (_, i) => new Uint8Array(bytes.subarray(20 * i, 20 * i + 20)))
}

/**
 * The in-memory history's form of an old block (store.ts): the same fields, an all-zero receipt bloom (every
 * receipt without logs) as empty bytes, and the senders, so no signature is recovered again on a read (an
 * impersonated transaction's could not be).
 */
export function packBlock(block: BlockRecord): Uint8Array {
  return RLP.encode([...blockFields(block, true), block.txs.map((t) => t.sender)])
}

export function unpackBlock(bytes: Uint8Array, common: Common): BlockRecord {
  const fields = RLP.decode(bytes) as Nested[]
  return blockOf(fields, common, fields[3] as Uint8Array[])
}

function blockFields(block: BlockRecord, packed = false): Nested[] {
  return [block.header.serialize(), block.txs.map((t) => t.raw), block.receipts.map((r) => encodeReceipt(r, packed))]
}

function blockOf([headerBytes, raws, receipts]: Nested[], common: Common, senders?: Uint8Array[]): BlockRecord {
  const header = adoptCommon(createBlockHeaderFromRLP(headerBytes as Uint8Array, { common, freeze: false }), common)
  const txs = (raws as Uint8Array[]).map((raw, i) =>
    senders ? txWithSender(raw, senders[i]!, common) : decodeChainTx(raw, common),
  )
  return assembleBlock(header, header.hash(), txs, (receipts as Nested[][]).map(decodeReceipt))
}

/** A sealed transaction whose sender is known: decoded without recovering it (a deposit has none to recover). */
function txWithSender(raw: Uint8Array, sender: Uint8Array, common: Common): TxRecord {
  if (raw[0] === DEPOSIT_TX_TYPE) return decodeTransaction(raw, common)
  const tx = createTxFromRLP(raw, { common: callCommon(common), freeze: false })
  ;(tx as { getSenderAddress: () => Address }).getSenderAddress = () => new Address(sender)
  adoptCommon(tx, common)
  return { hash: tx.hash(), tx, sender, raw }
}

function encodeReceipt(r: ReceiptRecord, packed: boolean): Nested {
  const op = r.op ? Object.entries(r.op).map(([key, value]) => [utf8ToBytes(key), int(value as bigint)]) : []
  return [
    int(r.type),
    int(r.status),
    int(r.gasUsed),
    int(r.cumulativeGasUsed),
    int(r.effectiveGasPrice),
    packed && r.logs.length === 0 ? EMPTY : r.logsBloom,
    r.logs.map((l) => [l.address, [...l.topics], l.data]),
    r.contractAddress ? [r.contractAddress] : [],
    int(r.firstLogIndex),
    op,
    // optional fields, each an empty list when absent (older records end before them)
    [
      r.depositNonce !== undefined ? [int(r.depositNonce)] : [],
      r.root ? [r.root] : [],
      r.blobGasUsed !== undefined ? [int(r.blobGasUsed)] : [],
      r.blobGasPrice !== undefined ? [int(r.blobGasPrice)] : [],
    ],
  ]
}

/** An optional field of `extras`: its value, or undefined when absent. */
function optional(extras: Nested | undefined, at: number): Uint8Array | undefined {
  const field = (extras as Nested[][] | undefined)?.[at]
  return field?.length ? (field[0] as Uint8Array) : undefined
}

function decodeReceipt(f: Nested[]): ReceiptRecord {
  const [type, status, gasUsed, cumulative, price, bloom, logs, contract, firstLogIndex, op, extras] = f
  const opPairs = op as Uint8Array[][]
  const [depositNonce, root, blobGasUsed, blobGasPrice] = [0, 1, 2, 3].map((at) => optional(extras, at))
  return {
    type: num(type),
    status: num(status) === 1 ? 1 : 0,
    gasUsed: big(gasUsed),
    cumulativeGasUsed: big(cumulative),
    effectiveGasPrice: big(price),
    logsBloom: (bloom as Uint8Array).length ? (bloom as Uint8Array) : new Uint8Array(256),
    logs: (logs as Uint8Array[][]).map(([address, topics, data]) => ({
      address,
      topics: topics as unknown as Uint8Array[],
      data,
    })),
    ...((contract as Uint8Array[]).length ? { contractAddress: (contract as Uint8Array[])[0] } : {}),
    firstLogIndex: num(firstLogIndex),
    ...(depositNonce ? { depositNonce: big(depositNonce) } : {}),
    ...(root ? { root } : {}),
    ...(blobGasUsed ? { blobGasUsed: big(blobGasUsed) } : {}),
    ...(blobGasPrice ? { blobGasPrice: big(blobGasPrice) } : {}),
    ...(opPairs.length
      ? {
          op: Object.fromEntries(
            opPairs.map(([k, v]) => [bytesToUtf8(k), bytesToBigInt(v)]),
          ) as unknown as ReceiptRecord['op'],
        }
      : {}),
  }
}
