/**
 * The on-disk form of a sealed block: RLP of [header, raw transactions, [layout, the block's OP fee set,
 * receipts]] (format 2 directories hold blocks whose receipts field is the receipts alone; both read). A receipt keeps
 * what execution decided and no position (assembleBlock recomputes log positions), so a block read back
 * is the same BlockRecord the sequencer sealed. Transactions are stored as received and decoded again
 * on load (the hash comes back from the bytes); their senders are stored beside the block (encodeSenders,
 * under their own key, so blocks written before them read as they were), so a read recovers no
 * signature, builds no transaction until one is read (sealed-tx.ts) and reads the RLP in place (rlp-views.ts).
 * bench/old-block-read.ts, a block of 50 transfers, CPU and bytes a read at load 12-16: 0.47 ms and 485 KB
 * (1.04 ms, 1 MB with every transaction built), against 2.9 ms and 2.5 MB building them all as they were
 * decoded, 7.5 ms recovering their signatures. The in-memory history packs its old blocks the same way
 * (packBlock), with their senders.
 */
import { createBlockHeaderFromBytesArray } from '@ethereumjs/block'
import type { Common } from '@ethereumjs/common'
import { RLP } from '@ethereumjs/rlp'
import { bigIntToUnpaddedBytes, bytesToBigInt, bytesToUtf8 } from '@ethereumjs/util'
import { assembleBlock } from '../../domain/block-record.js'
import { decodeViews } from '../../domain/rlp-views.js'
import { DEPOSIT_TX_TYPE } from '../../domain/deposit-encoding.js'
import type { BlockRecord, ReceiptRecord, TxRecord } from '../../domain/types.js'
import { adoptCommon, callCommon } from '../../evm/chain-common.js'
import { decodeTransaction } from '../pool/admission.js'
import { decodeChainTx } from '../dev/impersonation.js'
import { SealedTx } from './sealed-tx.js'
import type { BlockFeeParams } from '../../domain/op-fee-params.js'
import { blockFeeSet, decodeFeeSet, decodeOpFees, encodeFeeSet, encodeOpFees } from './stored-op-fees.js'

type Nested = Uint8Array | Nested[]
type Mutable<T> = { -readonly [K in keyof T]: T[K] }

const EMPTY = new Uint8Array(0)
const int = (n: bigint | number) => bigIntToUnpaddedBytes(BigInt(n))
/** A stored integer's value: read byte by byte up to 6 bytes (exact below 2^48), through hex beyond. */
function num(b: Nested): number {
  const bytes = b as Uint8Array
  if (bytes.length > 6) return Number(bytesToBigInt(bytes))
  let n = 0
  for (let i = 0; i < bytes.length; i++) n = n * 256 + bytes[i]!
  return n
}
const big = (b: Nested) => ((b as Uint8Array).length > 6 ? bytesToBigInt(b as Uint8Array) : BigInt(num(b)))

export function encodeBlock(block: BlockRecord): Uint8Array {
  return RLP.encode(blockFields(block))
}

/**
 * `senders`: encodeSenders' bytes stored with the block; without them (a block written before they were) each
 * sender is recovered from its signature, an impersonated transaction's from its marker.
 */
export function decodeBlock(bytes: Uint8Array, common: Common, senders?: Uint8Array): BlockRecord {
  const fields = fieldsOf(bytes)
  return blockOf(fields, common, senders && splitSenders(senders, (fields[1] as Nested[]).length))
}

const invalid = () => new Error('stored block: invalid RLP')

/**
 * A stored block's fields as views of one copy of its bytes (LevelDB's buffer or the packed history's, which
 * the record must not keep alive): read in place, not through RLP.decode's copy of every item.
 */
function fieldsOf(bytes: Uint8Array): Nested[] {
  // new Uint8Array, not slice: a Buffer's slice is a view
  const fields = decodeViews(new Uint8Array(bytes), invalid)
  if (!Array.isArray(fields)) throw invalid()
  return fields
}

/** A block's senders as stored beside it: 20 bytes each, in transaction order. */
export function encodeSenders(block: BlockRecord): Uint8Array {
  const out = new Uint8Array(20 * block.txs.length)
  block.txs.forEach((tx, i) => out.set(tx.sender, 20 * i))
  return out
}

function splitSenders(bytes: Uint8Array, count: number): Uint8Array[] {
  if (bytes.length !== 20 * count) throw new Error(`stored senders: ${bytes.length} bytes for ${count} transactions`)
  // one copy, a plain Uint8Array as the sealed records' (LevelDB hands back a Buffer), seen 20 bytes at a time
  const all = new Uint8Array(bytes)
  return Array.from({ length: count }, (_, i) => all.subarray(20 * i, 20 * i + 20))
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
  const fields = fieldsOf(bytes)
  return blockOf(fields, common, fields[3] as Uint8Array[])
}

/**
 * The receipts' layout, first item of a block's receipts: before it the receipts were the list itself (each a
 * list, so a leading string marks the new layout) and every receipt stored its OP fees by name.
 */
const RECEIPTS_BY_BLOCK_FEES = Uint8Array.of(1)

function blockFields(block: BlockRecord, packed = false): Nested[] {
  const fees = blockFeeSet(block.receipts.map((r) => r.op))
  return [
    block.header.serialize(),
    block.txs.map((t) => t.raw),
    [RECEIPTS_BY_BLOCK_FEES, encodeFeeSet(fees, int), block.receipts.map((r) => encodeReceipt(r, packed, fees))],
  ]
}

function blockOf([headerBytes, raws, stored]: Nested[], common: Common, senders?: Uint8Array[]): BlockRecord {
  // the header's own RLP read in place too (createBlockHeaderFromRLP is RLP.decode, then this)
  const values = decodeViews(headerBytes as Uint8Array, invalid)
  if (!Array.isArray(values)) throw invalid()
  const header = adoptCommon(
    createBlockHeaderFromBytesArray(values as Uint8Array[], { common: headerCommon(common), freeze: false }),
    common,
  )
  const txs = (raws as Uint8Array[]).map((raw, i) =>
    senders ? txWithSender(raw, senders[i]!, common) : decodeChainTx(raw, common),
  )
  return assembleBlock(header, header.hash(), txs, receiptsOf(stored as Nested[]))
}

function receiptsOf(stored: Nested[]): ReceiptRecord[] {
  const first = stored[0]
  if (first === undefined || Array.isArray(first)) return (stored as Nested[][]).map((f) => decodeReceipt(f, namedFees))
  if (first.length !== 1 || first[0] !== RECEIPTS_BY_BLOCK_FEES[0])
    throw new Error('stored block: unknown receipts layout')
  const fees = decodeFeeSet(stored[1]!, big)
  return (stored[2] as Nested[][]).map((f) => decodeReceipt(f, (op, gasUsed) => decodeOpFees(op, gasUsed, fees, big)))
}

/**
 * The Common a stored header is built on: callCommon's, which skips the block params merge the header
 * constructor runs on any other (0.1 ms a read), when it has `common`'s fork (the header's defaults follow the
 * fork; an import moves the chain's Common from fork to fork); `common` itself otherwise.
 */
function headerCommon(common: Common): Common {
  const shared = callCommon(common)
  return shared.hardfork() === common.hardfork() ? shared : common
}

/** A sealed transaction whose sender is known: nothing recovered, a user transaction built when first read. */
function txWithSender(raw: Uint8Array, sender: Uint8Array, common: Common): TxRecord {
  return raw[0] === DEPOSIT_TX_TYPE ? decodeTransaction(raw, common) : new SealedTx(raw, sender, common)
}

function encodeReceipt(r: ReceiptRecord, packed: boolean, blockFees: BlockFeeParams | undefined): Nested {
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
    encodeOpFees(r.op, r.gasUsed, blockFees, int),
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

type OpFeesOf = (stored: Nested, gasUsed: bigint) => ReceiptRecord['op']

function decodeReceipt(f: Nested[], opFees: OpFeesOf): ReceiptRecord {
  // indexed reads, no destructuring: a read of an old block decodes every receipt of it, and iterating
  // allocated more than the receipts themselves (a result object per element, per byte of a fee's name)
  const logs = f[6] as Uint8Array[][]
  const contract = f[7] as Uint8Array[]
  const extras = f[10]
  // the optional fields set one by one: no throw-away object for each
  const receipt: Mutable<ReceiptRecord> = {
    type: num(f[0]!),
    status: num(f[1]!) === 1 ? 1 : 0,
    gasUsed: big(f[2]!),
    cumulativeGasUsed: big(f[3]!),
    effectiveGasPrice: big(f[4]!),
    logsBloom: (f[5] as Uint8Array).length ? (f[5] as Uint8Array) : new Uint8Array(256),
    logs: logs.map((l) => ({ address: l[0]!, topics: l[1] as unknown as Uint8Array[], data: l[2]! })),
    firstLogIndex: 0,
  }
  if (contract.length) receipt.contractAddress = contract[0]
  receipt.firstLogIndex = num(f[8]!)
  const depositNonce = optional(extras, 0)
  if (depositNonce) receipt.depositNonce = big(depositNonce)
  const root = optional(extras, 1)
  if (root) receipt.root = root
  const blobGasUsed = optional(extras, 2)
  if (blobGasUsed) receipt.blobGasUsed = big(blobGasUsed)
  const blobGasPrice = optional(extras, 3)
  if (blobGasPrice) receipt.blobGasPrice = big(blobGasPrice)
  const op = opFees(f[9]!, receipt.gasUsed)
  if (op) receipt.op = op
  return receipt
}

/** The layout before RECEIPTS_BY_BLOCK_FEES: each fee as a [name, value] pair. */
function namedFees(stored: Nested): ReceiptRecord['op'] {
  const op = stored as Uint8Array[][]
  if (!op.length) return undefined
  const fees: Record<string, bigint> = {}
  for (let i = 0; i < op.length; i++) fees[text(op[i]![0]!)] = big(op[i]![1]!)
  return fees as unknown as ReceiptRecord['op']
}

/** An OP fee's name: ASCII (this codec writes field names), read without a TextDecoder call each. */
function text(bytes: Uint8Array): string {
  for (let i = 0; i < bytes.length; i++) if (bytes[i]! >= 0x80) return bytesToUtf8(bytes)
  return String.fromCharCode.apply(null, bytes as unknown as number[])
}
