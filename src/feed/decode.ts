/**
 * The raw feed's wire message (wire.ts) as domain values (domain/types.ts): the inverse of encode.ts, for a
 * follower reading an upstream feed, whichever producer it is (test/fixtures/feed-dialects/README.md): X
 * Layer's `target_index`, `metadata.block_number` as a number or hex, receipts internally or externally
 * tagged, `base`, `blob_gas_used`, balances and receipts omitted or null, op-rbuilder's `diff.post_exec_tx`
 * and X Layer's EIP-7928 `metadata.access_list`. Unknown fields are ignored; a field that is present but
 * malformed refuses the frame (FeedDecodeError), as serde would.
 */
import type { FlashblockBase, FlashblockPayload } from '../domain/types.js'
import { FeedDecodeError } from './codec.js'
import { decodeReceipt } from './decode-receipt.js'
import type { FlashblocksPayload } from './wire.js'
import { bytes, list, numberOrQuantity, object, optionalMap, quantity } from './wire-read.js'

export function decodeFlashblock(message: FlashblocksPayload): FlashblockPayload {
  const wire = object(message, 'message')
  const diff = object(wire.diff, 'diff')
  const metadata = object(wire.metadata, 'metadata')
  const index = wire.index
  if (typeof index !== 'number' || !Number.isSafeInteger(index) || index < 0)
    throw new FeedDecodeError('feed field index is not a whole number')
  const postExec = diff.post_exec_tx
  const accessList = metadata.access_list
  const targetIndex = wire.target_index
  return {
    payloadId: bytes(wire.payload_id, 'payload_id', 8),
    index,
    ...(wire.base !== undefined && wire.base !== null ? { base: decodeBase(wire.base) } : {}),
    diff: {
      stateRoot: bytes(diff.state_root, 'diff.state_root', 32),
      receiptsRoot: bytes(diff.receipts_root, 'diff.receipts_root', 32),
      logsBloom: bytes(diff.logs_bloom, 'diff.logs_bloom', 256),
      gasUsed: quantity(diff.gas_used, 'diff.gas_used'),
      blockHash: bytes(diff.block_hash, 'diff.block_hash', 32),
      transactions: list(diff.transactions, 'diff.transactions').map((t, i) => bytes(t, `diff.transactions[${i}]`)),
      // OP Stack L2s have no validator withdrawals: the list is empty by rule (Isthmus keeps only the root)
      withdrawals: [],
      withdrawalsRoot: bytes(diff.withdrawals_root, 'diff.withdrawals_root', 32),
      ...(diff.blob_gas_used !== undefined && diff.blob_gas_used !== null
        ? { blobGasUsed: quantity(diff.blob_gas_used, 'diff.blob_gas_used') }
        : {}),
      ...(postExec !== undefined && postExec !== null ? { postExecTx: bytes(postExec, 'diff.post_exec_tx') } : {}),
    },
    metadata: {
      blockNumber: numberOrQuantity(metadata.block_number, 'metadata.block_number'),
      newAccountBalances: optionalMap(metadata.new_account_balances, 'metadata.new_account_balances').map(
        ([address, balance]) => ({
          address: bytes(address, 'metadata.new_account_balances key', 20),
          balance: quantity(balance, `metadata.new_account_balances[${address}]`),
        }),
      ),
      receipts: optionalMap(metadata.receipts, 'metadata.receipts').map(([hash, r]) => decodeReceipt(hash, r)),
      ...(accessList !== undefined && accessList !== null
        ? { accessList: bytes(accessList, 'metadata.access_list') }
        : {}),
    },
    ...(targetIndex !== undefined ? { targetIndex: Number(numberOrQuantity(targetIndex, 'target_index')) } : {}),
  }
}

function decodeBase(value: unknown): FlashblockBase {
  const base = object(value, 'base')
  return {
    parentBeaconBlockRoot: bytes(base.parent_beacon_block_root, 'base.parent_beacon_block_root', 32),
    parentHash: bytes(base.parent_hash, 'base.parent_hash', 32),
    feeRecipient: bytes(base.fee_recipient, 'base.fee_recipient', 20),
    prevRandao: bytes(base.prev_randao, 'base.prev_randao', 32),
    blockNumber: quantity(base.block_number, 'base.block_number'),
    gasLimit: quantity(base.gas_limit, 'base.gas_limit'),
    timestamp: quantity(base.timestamp, 'base.timestamp'),
    extraData: bytes(base.extra_data, 'base.extra_data'),
    baseFeePerGas: quantity(base.base_fee_per_gas, 'base.base_fee_per_gas'),
  }
}
