/**
 * The raw flashblocks feed message as rollup-boost, Base, op-rbuilder and X Layer send it (FlashblocksPayloadV1
 * with `base` rather than the OP spec's `static`, no `version`/`parent_flash_hash`), plus X Layer's end-of-block
 * message. Keys are snake_case; quantities are hex strings except `index` and `metadata.block_number`. These
 * types are what this service sends; what it accepts is wider (decode.ts): producers differ in the details
 * (test/fixtures/feed-dialects/README.md).
 */
import type { Hex } from '../format/hex.js'

interface WireFlashblockBase {
  parent_beacon_block_root: Hex
  parent_hash: Hex
  fee_recipient: Hex
  prev_randao: Hex
  block_number: Hex
  gas_limit: Hex
  timestamp: Hex
  extra_data: Hex
  base_fee_per_gas: Hex
}

interface WireFlashblockDiff {
  /** cumulative for the block so far */
  state_root: Hex
  receipts_root: Hex
  logs_bloom: Hex
  gas_used: Hex
  block_hash: Hex
  /** only the transactions new in this flashblock (EIP-2718 bytes) */
  transactions: Hex[]
  withdrawals: unknown[]
  withdrawals_root: Hex
  blob_gas_used?: Hex
}

export interface FlashblockReceiptBody {
  status: Hex
  cumulativeGasUsed: Hex
  logs: { address: Hex; topics: Hex[]; data: Hex }[]
  /** Deposit receipts only (op-alloy's OpDepositReceipt). */
  depositNonce?: Hex
  depositReceiptVersion?: Hex
}

/** The older form: externally tagged by transaction type (X Layer's docs, rollup-boost). */
export type FlashblockReceipt = Partial<
  Record<'Legacy' | 'Eip2930' | 'Eip1559' | 'Eip7702' | 'Deposit', FlashblockReceiptBody>
>

/** op-alloy's current form: internally tagged, `type` the EIP-2718 type as a quantity (Base, op-rbuilder). */
export type TypedFlashblockReceipt = FlashblockReceiptBody & { type: Hex }

interface WireFlashblockMetadata {
  block_number: number
  new_account_balances: Record<Hex, Hex>
  receipts: Record<Hex, FlashblockReceipt | TypedFlashblockReceipt>
  /** Base's builder writes the (unused) EIP-7928 field as null. */
  access_list?: null
}

export interface FlashblocksPayload {
  payload_id: Hex
  index: number
  base?: WireFlashblockBase
  diff: WireFlashblockDiff
  metadata: WireFlashblockMetadata
  /** X Layer: the index the builder plans to reach in this block */
  target_index?: number
}

/** X Layer's end-of-sequence message: no more flashblocks for this payload. */
export interface FlashblocksEnd {
  payload_id: Hex
  /** absent by definition: keeps a payload from passing for an end message in type narrowing */
  diff?: never
}

export type FeedMessage = FlashblocksPayload | FlashblocksEnd

export function isEndOfBlock(message: FeedMessage): message is FlashblocksEnd {
  return !('diff' in message)
}
