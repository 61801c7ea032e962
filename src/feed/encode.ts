/**
 * A chain Flashblock (domain values) as the raw feed's wire message (flashblocks.md Part 1): snake_case,
 * quantities as hex except `index` and `metadata.block_number` (JSON numbers), `base` on index 0 only, only
 * the new transactions (EIP-2718 hex) in `diff`, and receipts externally tagged by transaction type.
 */
import type { Flashblock, FlashblockMetaReceipt } from '../domain/types.js'
import { address, data, quantity } from '../format/hex.js'
import type { Hex } from '../format/hex.js'
import type { FlashblockReceipt, FlashblocksEnd, FlashblocksPayload } from './wire.js'
import { depositReceiptFields } from '../opstack/deposit-json.js'

/** op-alloy's OpReceipt variant names, by EIP-2718 type. */
const RECEIPT_TAGS: Readonly<Record<number, keyof FlashblockReceipt>> = {
  0: 'Legacy',
  1: 'Eip2930',
  2: 'Eip1559',
  4: 'Eip7702',
  0x7e: 'Deposit',
}

export function encodeFlashblock(flashblock: Flashblock): FlashblocksPayload {
  const { base, diff, metadata } = flashblock
  const message: FlashblocksPayload = {
    payload_id: data(flashblock.payloadId),
    index: flashblock.index,
    diff: {
      state_root: data(diff.stateRoot),
      receipts_root: data(diff.receiptsRoot),
      logs_bloom: data(diff.logsBloom),
      gas_used: quantity(diff.gasUsed),
      block_hash: data(diff.blockHash),
      transactions: diff.transactions.map(data),
      withdrawals: [],
      withdrawals_root: data(diff.withdrawalsRoot),
      ...(diff.blobGasUsed !== undefined ? { blob_gas_used: quantity(diff.blobGasUsed) } : {}),
    },
    metadata: {
      block_number: Number(metadata.blockNumber),
      new_account_balances: Object.fromEntries(
        metadata.newAccountBalances.map((a) => [address(a.address), quantity(a.balance)]),
      ),
      receipts: Object.fromEntries(metadata.receipts.map((r) => [data(r.transactionHash), encodeReceipt(r)])),
    },
  }
  if (base) {
    // key order as rollup-boost serialises it, so the message reads like a real feed's
    const { payload_id, index, diff: wireDiff, metadata: wireMetadata } = message
    return {
      payload_id,
      index,
      base: {
        parent_beacon_block_root: data(base.parentBeaconBlockRoot),
        parent_hash: data(base.parentHash),
        fee_recipient: address(base.feeRecipient),
        prev_randao: data(base.prevRandao),
        block_number: quantity(base.blockNumber),
        gas_limit: quantity(base.gasLimit),
        timestamp: quantity(base.timestamp),
        extra_data: data(base.extraData),
        base_fee_per_gas: quantity(base.baseFeePerGas),
      },
      diff: wireDiff,
      metadata: wireMetadata,
    }
  }
  return message
}

function encodeReceipt(receipt: FlashblockMetaReceipt): FlashblockReceipt {
  const tag = RECEIPT_TAGS[receipt.txType] ?? 'Legacy'
  return {
    [tag]: {
      status: quantity(receipt.status),
      cumulativeGasUsed: quantity(receipt.cumulativeGasUsed),
      logs: receipt.logs.map((log) => ({
        address: address(log.address),
        topics: log.topics.map(data),
        data: data(log.data),
      })),
      ...(receipt.depositNonce !== undefined ? depositReceiptFields({ depositNonce: receipt.depositNonce }) : {}),
    },
  }
}

/** X Layer's end-of-block message: no more flashblocks for this payload. */
export function encodeEndOfBlock(payloadId: Uint8Array): FlashblocksEnd {
  return { payload_id: data(payloadId) as Hex }
}
