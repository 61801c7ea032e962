/**
 * The raw feed's wire message (wire.ts) as domain values (chain/types.ts): the inverse of encode.ts, for a
 * follower reading an upstream feed. Receipts are externally tagged by type (op-alloy's OpReceipt); a tag we
 * do not know keeps the receipt with type 0, since only status, gas and logs are compared.
 */
import type { FlashblockMetaReceipt, FlashblockPayload } from '../domain/types.js'
import { parseData, parseQuantity } from '../format/hex.js'
import type { FlashblockReceipt, FlashblocksPayload } from './wire.js'

const RECEIPT_TYPES: Readonly<Record<string, number>> = { Legacy: 0, Eip2930: 1, Eip1559: 2, Eip7702: 4, Deposit: 0x7e }

export function decodeFlashblock(message: FlashblocksPayload): FlashblockPayload {
  const { base, diff, metadata } = message
  return {
    payloadId: parseData(message.payload_id),
    index: message.index,
    ...(base
      ? {
          base: {
            parentBeaconBlockRoot: parseData(base.parent_beacon_block_root),
            parentHash: parseData(base.parent_hash),
            feeRecipient: parseData(base.fee_recipient),
            prevRandao: parseData(base.prev_randao),
            blockNumber: parseQuantity(base.block_number),
            gasLimit: parseQuantity(base.gas_limit),
            timestamp: parseQuantity(base.timestamp),
            extraData: parseData(base.extra_data),
            baseFeePerGas: parseQuantity(base.base_fee_per_gas),
          },
        }
      : {}),
    diff: {
      stateRoot: parseData(diff.state_root),
      receiptsRoot: parseData(diff.receipts_root),
      logsBloom: parseData(diff.logs_bloom),
      gasUsed: parseQuantity(diff.gas_used),
      blockHash: parseData(diff.block_hash),
      transactions: (diff.transactions ?? []).map(parseData),
      withdrawals: [],
      withdrawalsRoot: parseData(diff.withdrawals_root),
      ...(diff.blob_gas_used !== undefined ? { blobGasUsed: parseQuantity(diff.blob_gas_used) } : {}),
    },
    metadata: {
      // Base's metadata is now {block_number} only: balances and receipts are optional
      blockNumber: BigInt(metadata.block_number),
      newAccountBalances: Object.entries(metadata.new_account_balances ?? {}).map(([a, b]) => ({
        address: parseData(a),
        balance: parseQuantity(b),
      })),
      receipts: Object.entries(metadata.receipts ?? {}).map(([hash, receipt]) => decodeReceipt(hash, receipt)),
    },
  }
}

function decodeReceipt(hash: string, receipt: FlashblockReceipt): FlashblockMetaReceipt {
  const [tag, body] = Object.entries(receipt)[0] ?? []
  if (!body) throw new TypeError(`feed receipt for ${hash} has no body`)
  return {
    transactionHash: parseData(hash),
    txType: RECEIPT_TYPES[tag] ?? 0,
    status: parseQuantity(body.status) === 1n ? 1 : 0,
    cumulativeGasUsed: parseQuantity(body.cumulativeGasUsed),
    logs: body.logs.map((l) => ({
      address: parseData(l.address),
      topics: l.topics.map(parseData),
      data: parseData(l.data),
    })),
    ...(body.depositNonce !== undefined ? { depositNonce: parseQuantity(body.depositNonce) } : {}),
  }
}
