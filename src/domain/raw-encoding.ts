/**
 * Consensus encodings of stored records, as debug_getRaw* answers them: a receipt as the receipts trie
 * commits to it (EIP-2718 typed, a deposit's op-geth form) and a block as `geth export` writes it.
 */
import { RLP } from '@ethereumjs/rlp'
import { encodeReceipt } from '@ethereumjs/vm'
import { encodeDepositReceipt } from './deposit-receipt.js'
import type { BlockRecord, ReceiptRecord } from './types.js'

/** The receipt's consensus bytes (legacy receipts are a bare RLP list, typed ones `type || rlp(...)`). */
export function encodeReceiptRecord(r: ReceiptRecord): Uint8Array {
  if (r.depositNonce !== undefined) return encodeDepositReceipt({ ...r, depositNonce: r.depositNonce })
  const logs = r.logs.map((l) => [l.address, [...l.topics], l.data] as [Uint8Array, Uint8Array[], Uint8Array])
  // before Byzantium a receipt committed to the post-transaction state root instead of a status
  const outcome = r.root ? { stateRoot: r.root } : { status: r.status }
  return encodeReceipt(
    { ...outcome, cumulativeBlockGasUsed: r.cumulativeGasUsed, bitvector: r.logsBloom, logs },
    r.type as 0 | 1 | 2 | 3 | 4,
  )
}

/**
 * `rlp([header, transactions, uncles, withdrawals?])`: a legacy transaction is an inline list, a typed one
 * its EIP-2718 bytes as a string. Uncles only before the merge (an imported block's); withdrawals only from
 * Shanghai (an imported block's; an OP Stack block has none).
 */
export function encodeBlockRecord(block: BlockRecord): Uint8Array {
  const txs = block.txs.map(({ tx, raw }) => (tx.type === 0 ? (RLP.decode(raw) as Uint8Array[]) : raw))
  const body: unknown[] = [block.header.raw(), txs, (block.uncles ?? []).map((uncle) => uncle.raw())]
  // @ethereumjs's Withdrawal gives its own RLP fields ([index, validatorIndex, address, amount])
  if (block.header.withdrawalsRoot !== undefined) body.push((block.withdrawals ?? []).map((w) => w.raw()))
  return RLP.encode(body as Parameters<typeof RLP.encode>[0])
}
