/**
 * The block encoder before receipts stored their OP fees by block (session 14): each receipt's fees as
 * [utf8 name, value] pairs. Data directories written then hold blocks in this form, so the codec must still
 * read it; this writes it, as that encoder did, for tests of that reading.
 */
import { RLP } from '@ethereumjs/rlp'
import { bigIntToUnpaddedBytes, utf8ToBytes } from '@ethereumjs/util'
import type { BlockRecord, ReceiptRecord } from '../../src/domain/types.js'

type Nested = Uint8Array | Nested[]

const EMPTY = new Uint8Array(0)
const int = (n: bigint | number) => bigIntToUnpaddedBytes(BigInt(n))

/** A block as a data directory of sessions up to 13 stored it (codec.ts's encodeBlock then). */
export function encodeNamedFeesBlock(block: BlockRecord): Uint8Array {
  return RLP.encode(fields(block))
}

/** A block as the in-memory history packed it then (codec.ts's packBlock). */
export function packNamedFeesBlock(block: BlockRecord): Uint8Array {
  return RLP.encode([...fields(block, true), block.txs.map((t) => t.sender)])
}

function fields(block: BlockRecord, packed = false): Nested[] {
  return [block.header.serialize(), block.txs.map((t) => t.raw), block.receipts.map((r) => receipt(r, packed))]
}

function receipt(r: ReceiptRecord, packed: boolean): Nested {
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
    [
      r.depositNonce !== undefined ? [int(r.depositNonce)] : [],
      r.root ? [r.root] : [],
      r.blobGasUsed !== undefined ? [int(r.blobGasUsed)] : [],
      r.blobGasPrice !== undefined ? [int(r.blobGasPrice)] : [],
    ],
  ]
}
