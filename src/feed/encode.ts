/**
 * A chain Flashblock (domain values) as the raw feed's wire message (flashblocks.md Part 1): snake_case,
 * quantities as hex except `index` and `metadata.block_number` (JSON numbers), `base` on index 0 only, only
 * the new transactions (EIP-2718 hex) in `diff`, metadata with balances and receipts. `--feed-dialect`
 * chooses the producer it reads like (test/fixtures/feed-dialects/README.md): `xlayer` adds `target_index` (0
 * on index 0, as xlayer-reth) and tags receipts externally as X Layer's feed docs show them (`{"Eip1559":
 * {...}}`); `base` tags them by `type` as op-alloy serialises them and writes Base's `access_list: null`.
 * The end-of-block message is X Layer's alone (connectChain sends it).
 */
import type { Flashblock, FlashblockBase, FlashblockMetaReceipt, FlashblockPayload } from '../domain/types.js'
import { address, data, quantity } from '../format/hex.js'
import type { Hex } from '../format/hex.js'
import type { FeedDialect } from '../config.js'
import type {
  FlashblockReceipt,
  FlashblockReceiptBody,
  FlashblocksEnd,
  FlashblocksPayload,
  TypedFlashblockReceipt,
} from './wire.js'
import { depositReceiptFields } from '../format/deposit.js'

/** op-alloy's OpReceipt variant names, by EIP-2718 type. */
const RECEIPT_TAGS: Readonly<Record<number, keyof FlashblockReceipt>> = {
  0: 'Legacy',
  1: 'Eip2930',
  2: 'Eip1559',
  4: 'Eip7702',
  0x7e: 'Deposit',
}

/** How the feed writes: the dialect, and the index X Layer's builder would plan to reach in a block. */
export interface FeedStyle {
  dialect: FeedDialect
  /** The sequencer's planned last index in a block; a relayed flashblock's own wins. */
  targetIndex?: number
}

export function encodeFlashblock(flashblock: Flashblock, style: FeedStyle = { dialect: 'xlayer' }): FlashblocksPayload {
  const { base, diff, metadata } = flashblock
  const receipt = style.dialect === 'xlayer' ? taggedReceipt : typedReceipt
  const message: FlashblocksPayload = {
    payload_id: data(flashblock.payloadId),
    index: flashblock.index,
    diff: encodeDiff(diff),
    metadata: {
      block_number: Number(metadata.blockNumber),
      new_account_balances: Object.fromEntries(
        metadata.newAccountBalances.map((a) => [address(a.address), quantity(a.balance)]),
      ),
      receipts: Object.fromEntries(metadata.receipts.map((r) => [data(r.transactionHash), receipt(r)])),
      ...(style.dialect === 'base' ? { access_list: null } : {}),
    },
    ...(style.dialect === 'xlayer'
      ? { target_index: flashblock.index === 0 ? 0 : (flashblock.targetIndex ?? style.targetIndex ?? 0) }
      : {}),
  }
  if (base) {
    // key order as rollup-boost serialises it, so the message reads like a real feed's
    const { payload_id, index, diff: wireDiff, metadata: wireMetadata, target_index } = message
    return {
      payload_id,
      index,
      base: encodeBase(base),
      diff: wireDiff,
      metadata: wireMetadata,
      ...(target_index !== undefined ? { target_index } : {}),
    }
  }
  return message
}

/** The block's fixed fields, sent with index 0 only. */
export function encodeBase(base: FlashblockBase): FlashblocksPayload['base'] {
  return {
    parent_beacon_block_root: data(base.parentBeaconBlockRoot),
    parent_hash: data(base.parentHash),
    fee_recipient: address(base.feeRecipient),
    prev_randao: data(base.prevRandao),
    block_number: quantity(base.blockNumber),
    gas_limit: quantity(base.gasLimit),
    timestamp: quantity(base.timestamp),
    extra_data: data(base.extraData),
    base_fee_per_gas: quantity(base.baseFeePerGas),
  }
}

/** What the flashblock adds: the block's running roots and totals, and its new transactions. */
export function encodeDiff(diff: FlashblockPayload['diff']): FlashblocksPayload['diff'] {
  return {
    state_root: data(diff.stateRoot),
    receipts_root: data(diff.receiptsRoot),
    logs_bloom: data(diff.logsBloom),
    gas_used: quantity(diff.gasUsed),
    block_hash: data(diff.blockHash),
    transactions: diff.transactions.map(data),
    withdrawals: [],
    withdrawals_root: data(diff.withdrawalsRoot),
    ...(diff.blobGasUsed !== undefined ? { blob_gas_used: quantity(diff.blobGasUsed) } : {}),
  }
}

function receiptBody(receipt: FlashblockMetaReceipt): FlashblockReceiptBody {
  return {
    status: quantity(receipt.status),
    cumulativeGasUsed: quantity(receipt.cumulativeGasUsed),
    logs: receipt.logs.map((log) => ({
      address: address(log.address),
      topics: log.topics.map(data),
      data: data(log.data),
    })),
    ...(receipt.depositNonce !== undefined ? depositReceiptFields({ depositNonce: receipt.depositNonce }) : {}),
  }
}

function taggedReceipt(receipt: FlashblockMetaReceipt): FlashblockReceipt {
  return { [RECEIPT_TAGS[receipt.txType] ?? 'Legacy']: receiptBody(receipt) }
}

/** op-alloy's OpReceipt: tagged by `type`, camelCase; a deposit's nonce and receipt version. */
export function typedReceipt(receipt: FlashblockMetaReceipt): TypedFlashblockReceipt {
  return { type: quantity(receipt.txType), ...receiptBody(receipt) }
}

/** X Layer's end-of-block message: no more flashblocks for this payload. */
export function encodeEndOfBlock(payloadId: Uint8Array): FlashblocksEnd {
  return { payload_id: data(payloadId) as Hex }
}
