/**
 * An upstream node's JSON block (`eth_getBlockByNumber(n, true)`) and receipts (`eth_getBlockReceipts`)
 * turned into the domain BlockRecord the embedded chain stores, so every read is answered from it exactly
 * as the embedded chain answers. Nothing is taken on trust: the rebuilt header must hash to the upstream's
 * `hash`, every transaction (re-encoded, then decoded by the pool's decoder) to its `hash` and `from`, and
 * the transactions and receipts to the header's roots; a block that fails any check is refused with
 * UnverifiableBlockError. Deposits (0x7e) are rebuilt from their OP fields and decoded by the same decoder.
 */
import { createBlockHeader } from '@ethereumjs/block'
import type { Common } from '@ethereumjs/common'
import { createTx, type TypedTxData } from '@ethereumjs/tx'
import { bigIntToUnpaddedBytes, equalsBytes } from '@ethereumjs/util'
import { encodeReceipt } from '@ethereumjs/vm'
import type { Block, Log, Receipt, Transaction } from '../../generated/types.js'
import { assembleBlock } from '../domain/block-record.js'
import { adoptCommon, callCommon } from '../evm/chain-common.js'
import { orderedTrieRoot } from '../evm/ordered-trie.js'
import type { BlockRecord, LogBody, ReceiptRecord, TxRecord } from '../domain/types.js'
import { decodeFeedTx, type KnownTxs } from './feed-txs.js'
import { parseData, parseQuantity } from '../format/hex.js'
import { type DepositTx, DEPOSIT_TX_TYPE, encodeDeposit } from '../domain/deposit-encoding.js'
import { encodeDepositReceipt } from '../domain/deposit-receipt.js'
import { opReceiptFromJson } from '../format/op-receipt.js'

/** The upstream's block or receipts do not reproduce its own hashes and roots. */
export class UnverifiableBlockError extends Error {
  constructor(number: string | undefined, reason: string) {
    super(`upstream block ${number ?? '?'} refused: ${reason}`)
    this.name = 'UnverifiableBlockError'
  }
}

/**
 * A BlockRecord equal to the upstream's block; throws UnverifiableBlockError otherwise. `known`: records
 * of transactions already decoded here (pending, forwarded), taken for the same bytes.
 */
export function blockFromUpstream(
  json: Block,
  receipts: readonly Receipt[],
  common: Common,
  known?: KnownTxs,
): BlockRecord {
  const fail = (reason: string): never => {
    throw new UnverifiableBlockError(json?.number, reason)
  }
  if (!json || typeof json !== 'object') fail('no block')
  const hash = parseData(json.hash)
  const header = adoptCommon(
    createBlockHeader(headerFields(json), {
      common: callCommon(common),
      freeze: false,
      skipConsensusFormatValidation: true,
    }),
    common,
  )
  if (!equalsBytes(header.hash(), hash))
    fail(`the header rebuilt from its fields hashes to ${toHex(header.hash())}, not ${json.hash}`)

  const txsJson = json.transactions as Transaction[]
  if (txsJson.some((t) => typeof t !== 'object'))
    fail('transactions are hashes, not objects (ask with hydrated = true)')
  const txs = txsJson.map((t, i) => txFromUpstream(t, common, known, (reason) => fail(`transaction ${i}: ${reason}`)))
  if (!equalsBytes(orderedTrieRoot(txs.map((t) => t.raw)), header.transactionsTrie))
    fail('transactionsRoot does not match')

  if (!Array.isArray(receipts) || receipts.length !== txs.length)
    fail(`${receipts?.length} receipts for ${txs.length} transactions`)
  let firstLogIndex = 0
  const records = receipts.map((r, i) => {
    if (r.blockHash !== json.hash) fail(`receipt ${i} is of block ${r.blockHash}`)
    if (!equalsBytes(parseData(r.transactionHash), txs[i].hash))
      fail(`receipt ${i} is of transaction ${r.transactionHash}`)
    const record = receiptFromUpstream(r, firstLogIndex)
    firstLogIndex += record.logs.length
    return record
  })
  const encoded = records.map((r) =>
    r.depositNonce !== undefined
      ? encodeDepositReceipt({ ...r, depositNonce: r.depositNonce })
      : encodeReceipt(
          {
            status: r.status,
            cumulativeBlockGasUsed: r.cumulativeGasUsed,
            bitvector: r.logsBloom,
            logs: r.logs.map((l) => [l.address, [...l.topics], l.data]),
          },
          r.type as 0 | 1 | 2 | 3 | 4,
        ),
  )
  if (!equalsBytes(orderedTrieRoot(encoded), header.receiptTrie)) fail('receiptsRoot does not match the receipts')

  const block = assembleBlock(header, hash, txs, records)
  // the upstream's own size is the answer to reproduce (ours counts the same RLP, but a node may differ)
  return json.size !== undefined ? { ...block, size: Number(parseQuantity(json.size)) } : block
}

/** The header's fields as @ethereumjs takes them; absent optional fields stay absent. */
function headerFields(b: Block) {
  const opt = <T>(v: string | undefined, f: (s: string) => T) => (v === undefined || v === null ? undefined : f(v))
  return {
    parentHash: parseData(b.parentHash),
    uncleHash: parseData(b.sha3Uncles),
    coinbase: parseData(b.miner),
    stateRoot: parseData(b.stateRoot),
    transactionsTrie: parseData(b.transactionsRoot),
    receiptTrie: parseData(b.receiptsRoot),
    logsBloom: parseData(b.logsBloom),
    difficulty: opt(b.difficulty, parseQuantity) ?? 0n,
    number: parseQuantity(b.number),
    gasLimit: parseQuantity(b.gasLimit),
    gasUsed: parseQuantity(b.gasUsed),
    timestamp: parseQuantity(b.timestamp),
    extraData: parseData(b.extraData),
    mixHash: opt(b.mixHash, parseData),
    nonce: opt(b.nonce, parseData),
    baseFeePerGas: opt(b.baseFeePerGas, parseQuantity),
    withdrawalsRoot: opt(b.withdrawalsRoot, parseData),
    blobGasUsed: opt(b.blobGasUsed, parseQuantity),
    excessBlobGas: opt(b.excessBlobGas, parseQuantity),
    parentBeaconBlockRoot: opt(b.parentBeaconBlockRoot, parseData),
    requestsHash: opt(b.requestsHash, parseData),
  }
}

/** Re-encodes the JSON transaction and decodes those bytes as the pool would; hash and sender must match. */
function txFromUpstream(
  t: Transaction,
  common: Common,
  known: KnownTxs | undefined,
  fail: (reason: string) => never,
): TxRecord {
  let raw: Uint8Array
  try {
    raw =
      Number(parseQuantity(t.type)) === DEPOSIT_TX_TYPE
        ? encodeDeposit(depositFromJson(t))
        : createTx(txData(t), { common: callCommon(common) }).serialize()
  } catch (err) {
    return fail(`type ${t.type} cannot be rebuilt: ${(err as Error).message}`)
  }
  let record: TxRecord
  try {
    record = decodeFeedTx(raw, common, known)
  } catch (err) {
    return fail(`type ${t.type} refused by the decoder: ${(err as Error).message}`)
  }
  if (!equalsBytes(record.hash, parseData(t.hash))) fail(`re-encoded it hashes to ${toHex(record.hash)}, not ${t.hash}`)
  if (!equalsBytes(record.sender, parseData(t.from)))
    fail(`its signature recovers ${toHex(record.sender)}, not ${t.from}`)
  return record
}

/** A deposit's JSON (op-geth/op-reth: sourceHash, mint, isSystemTx) as the fields it was encoded from. */
function depositFromJson(t: Transaction): DepositTx {
  const j = t as Transaction & { sourceHash?: string; mint?: string; isSystemTx?: boolean }
  if (j.sourceHash === undefined) throw new Error('a deposit without sourceHash')
  return {
    sourceHash: parseData(j.sourceHash),
    from: parseData(t.from),
    to: t.to ? parseData(t.to) : undefined,
    mint: j.mint ? parseQuantity(j.mint) : 0n,
    value: parseQuantity(t.value),
    gas: parseQuantity(t.gas),
    isSystemTx: j.isSystemTx === true,
    data: parseData(t.input),
  }
}

function txData(t: Transaction): TypedTxData {
  const q = (v: string | undefined) => (v === undefined || v === null ? undefined : parseQuantity(v))
  const type = Number(parseQuantity(t.type))
  const common = {
    type,
    nonce: q(t.nonce),
    gasLimit: q(t.gas),
    to: t.to ?? undefined,
    value: q(t.value),
    data: parseData(t.input),
    r: q(t.r),
    s: q(t.s),
  }
  if (type === 0) return { ...common, gasPrice: q(t.gasPrice), v: q(t.v) }
  const typed = {
    ...common,
    chainId: q(t.chainId),
    v: q(t.yParity ?? t.v),
    accessList: (t.accessList ?? []).map((e) => ({ address: e.address, storageKeys: e.storageKeys })),
  }
  if (type === 1) return { ...typed, gasPrice: q(t.gasPrice) } as TypedTxData
  const fees = { maxFeePerGas: q(t.maxFeePerGas), maxPriorityFeePerGas: q(t.maxPriorityFeePerGas) }
  if (type !== 4) return { ...typed, ...fees } as TypedTxData
  const unpadded = (v: string) => bigIntToUnpaddedBytes(parseQuantity(v))
  const authorizationList = (t.authorizationList ?? []).map((a) => [
    unpadded(a.chainId),
    parseData(a.address),
    unpadded(a.nonce),
    unpadded(a.yParity),
    unpadded(a.r),
    unpadded(a.s),
  ])
  return { ...typed, ...fees, authorizationList } as TypedTxData
}

function receiptFromUpstream(r: Receipt, firstLogIndex: number): ReceiptRecord {
  const depositNonce = (r as Receipt & { depositNonce?: string }).depositNonce
  const op = opReceiptFromJson(r as unknown as Record<string, unknown>, parseQuantity(r.gasUsed))
  const logs: LogBody[] = r.logs.map((l: Log) => ({
    address: parseData(l.address),
    topics: l.topics.map(parseData),
    data: parseData(l.data),
  }))
  return {
    type: Number(parseQuantity(r.type)),
    status: r.status !== undefined && parseQuantity(r.status) === 1n ? 1 : 0,
    ...(r.root !== undefined ? { root: parseData(r.root) } : {}),
    gasUsed: parseQuantity(r.gasUsed),
    cumulativeGasUsed: parseQuantity(r.cumulativeGasUsed),
    effectiveGasPrice: parseQuantity(r.effectiveGasPrice),
    logsBloom: parseData(r.logsBloom),
    logs,
    ...(r.contractAddress ? { contractAddress: parseData(r.contractAddress) } : {}),
    firstLogIndex,
    ...(depositNonce !== undefined ? { depositNonce: parseQuantity(depositNonce) } : {}),
    ...(op ? { op } : {}),
  }
}

function toHex(bytes: Uint8Array): string {
  return `0x${Buffer.from(bytes).toString('hex')}`
}
