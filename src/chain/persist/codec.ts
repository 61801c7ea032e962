/**
 * The on-disk form of a sealed block: RLP of [header, raw transactions, receipts]. A receipt keeps
 * what execution decided and no position (assembleBlock recomputes log positions), so a block read back
 * is the same BlockRecord the sequencer sealed. Transactions are stored as received and decoded again
 * on load (hash and sender come back from the bytes).
 */
import { createBlockHeaderFromRLP } from '@ethereumjs/block'
import type { Common } from '@ethereumjs/common'
import { RLP } from '@ethereumjs/rlp'
import { bigIntToUnpaddedBytes, bytesToBigInt, bytesToUtf8, utf8ToBytes } from '@ethereumjs/util'
import { assembleBlock } from '../../domain/block-record.js'
import type { BlockRecord, ReceiptRecord } from '../../domain/types.js'
import { adoptCommon } from '../../evm/chain-common.js'
import { decodeTransaction } from '../pool/admission.js'

type Nested = Uint8Array | Nested[]

const int = (n: bigint | number) => bigIntToUnpaddedBytes(BigInt(n))
const num = (b: Nested) => Number(bytesToBigInt(b as Uint8Array))
const big = (b: Nested) => bytesToBigInt(b as Uint8Array)

export function encodeBlock(block: BlockRecord): Uint8Array {
  return RLP.encode([block.header.serialize(), block.txs.map((t) => t.raw), block.receipts.map(encodeReceipt)])
}

export function decodeBlock(bytes: Uint8Array, common: Common): BlockRecord {
  const [headerBytes, raws, receipts] = RLP.decode(bytes) as Nested[]
  const header = adoptCommon(createBlockHeaderFromRLP(headerBytes as Uint8Array, { common, freeze: false }), common)
  const txs = (raws as Uint8Array[]).map((raw) => decodeTransaction(raw, common))
  return assembleBlock(header, header.hash(), txs, (receipts as Nested[][]).map(decodeReceipt))
}

function encodeReceipt(r: ReceiptRecord): Nested {
  const op = r.op ? Object.entries(r.op).map(([key, value]) => [utf8ToBytes(key), int(value as bigint)]) : []
  return [
    int(r.type),
    int(r.status),
    int(r.gasUsed),
    int(r.cumulativeGasUsed),
    int(r.effectiveGasPrice),
    r.logsBloom,
    r.logs.map((l) => [l.address, [...l.topics], l.data]),
    r.contractAddress ? [r.contractAddress] : [],
    int(r.firstLogIndex),
    op,
  ]
}

function decodeReceipt(f: Nested[]): ReceiptRecord {
  const [type, status, gasUsed, cumulative, price, bloom, logs, contract, firstLogIndex, op] = f
  const opPairs = op as Uint8Array[][]
  return {
    type: num(type),
    status: num(status) === 1 ? 1 : 0,
    gasUsed: big(gasUsed),
    cumulativeGasUsed: big(cumulative),
    effectiveGasPrice: big(price),
    logsBloom: bloom as Uint8Array,
    logs: (logs as Uint8Array[][]).map(([address, topics, data]) => ({
      address,
      topics: topics as unknown as Uint8Array[],
      data,
    })),
    ...((contract as Uint8Array[]).length ? { contractAddress: (contract as Uint8Array[])[0] } : {}),
    firstLogIndex: num(firstLogIndex),
    ...(opPairs.length
      ? {
          op: Object.fromEntries(
            opPairs.map(([k, v]) => [bytesToUtf8(k), bytesToBigInt(v)]),
          ) as unknown as ReceiptRecord['op'],
        }
      : {}),
  }
}
