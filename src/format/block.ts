/**
 * Blocks on the wire, shaped like geth's RPCMarshalBlock: every header field, `size`, the
 * transactions as hashes or as full objects, and empty uncles.
 */
import type { BlockHeader } from '@ethereumjs/block'
import type { BlockRecord } from '../domain/types.js'
import type { Block } from '../../generated/types.js'
import { address, data, quantity } from './hex.js'
import { formatTransaction, type RpcTransaction } from './transaction.js'

/** The header fields geth reports, in its order. */
/** A header as newHeads sends it: a Block without size, transactions, uncles and withdrawals. */
export type RpcHeader = Omit<Block, 'size' | 'transactions' | 'uncles' | 'withdrawals'>

export function formatHeader(header: BlockHeader, hash: Uint8Array): RpcHeader {
  const out: Record<string, unknown> = {
    baseFeePerGas: header.baseFeePerGas !== undefined ? quantity(header.baseFeePerGas) : undefined,
    blobGasUsed: header.blobGasUsed !== undefined ? quantity(header.blobGasUsed) : undefined,
    difficulty: quantity(header.difficulty),
    excessBlobGas: header.excessBlobGas !== undefined ? quantity(header.excessBlobGas) : undefined,
    extraData: data(header.extraData),
    gasLimit: quantity(header.gasLimit),
    gasUsed: quantity(header.gasUsed),
    hash: data(hash),
    logsBloom: data(header.logsBloom),
    miner: address(header.coinbase.bytes),
    mixHash: data(header.mixHash),
    nonce: data(header.nonce),
    number: quantity(header.number),
    parentBeaconBlockRoot: header.parentBeaconBlockRoot ? data(header.parentBeaconBlockRoot) : undefined,
    parentHash: data(header.parentHash),
    receiptsRoot: data(header.receiptTrie),
    requestsHash: header.requestsHash ? data(header.requestsHash) : undefined,
    sha3Uncles: data(header.uncleHash),
    stateRoot: data(header.stateRoot),
    timestamp: quantity(header.timestamp),
    transactionsRoot: data(header.transactionsTrie),
    withdrawalsRoot: header.withdrawalsRoot ? data(header.withdrawalsRoot) : undefined,
  }
  for (const key of Object.keys(out)) if (out[key] === undefined) delete out[key]
  return out as RpcHeader
}

/** A whole block: header fields plus size, transactions (hashes or objects), uncles and withdrawals. */
export function formatBlock(
  header: BlockHeader,
  hash: Uint8Array,
  size: number,
  transactions: Block['transactions'],
  body: Pick<BlockRecord, 'withdrawals' | 'uncles'> = {},
): Block {
  const withdrawals = (body.withdrawals ?? []).map((w) => ({
    index: quantity(w.index),
    validatorIndex: quantity(w.validatorIndex),
    address: address(w.address.bytes),
    amount: quantity(w.amount),
  }))
  return {
    ...formatHeader(header, hash),
    size: quantity(size),
    transactions,
    uncles: (body.uncles ?? []).map((uncle) => data(uncle.hash())),
    ...(header.withdrawalsRoot ? { withdrawals } : {}),
  } as Block
}

/** A chain block record as eth_getBlockBy* answers it: transactions as hashes, or as full objects. */
export function formatBlockRecord(block: BlockRecord, hydrated: boolean): Block {
  const transactions = hydrated
    ? block.txs.map((_, i) => formatTxInBlock(block, i))
    : block.txs.map((record) => data(record.hash))
  return formatBlock(block.header, block.hash, block.size, transactions, block)
}

/** The `index`-th transaction of a block in geth's RPCTransaction shape. */
export function formatTxInBlock(block: BlockRecord, index: number): RpcTransaction {
  const { tx, sender } = block.txs[index]!
  return formatTransaction(tx, sender, {
    blockHash: block.hash,
    blockNumber: block.number,
    blockTimestamp: block.header.timestamp,
    index,
    baseFee: block.header.baseFeePerGas,
    depositNonce: block.receipts[index]?.depositNonce,
  })
}
