/**
 * The chain's domain records (bigint / Uint8Array; hex only at the wire boundary). Blocks, transactions,
 * receipts and logs are stored in these shapes once, at execution, so readers never re-execute or
 * re-decode. A `Flashblock` is the sequencer's output and the pending store's input: the payload fields
 * of the raw feed (flashblocks.md Part 1) plus the executed records of its new transactions. They belong to
 * no backend: the embedded chain and a follower fill the same shapes, and the pending store and the
 * resolver read them without knowing which.
 */
import type { BlockHeader } from '@ethereumjs/block'
import type { Withdrawal } from '@ethereumjs/util'
import type { TypedTransaction } from '@ethereumjs/tx'
import type { ChainTransaction } from './deposit-transaction.js'
import type { OpReceiptFees } from './op-fee-params.js'

/** A transaction decoded once at admission: its hash, recovered sender and the bytes it arrived as. */
export interface TxRecord {
  readonly hash: Uint8Array
  /** Decoded, frozen: hash and sender are cached inside. A deposit (type 0x7e) is a DepositTransaction. */
  readonly tx: ChainTransaction
  /** 20 bytes (a deposit's `from`). */
  readonly sender: Uint8Array
  /** EIP-2718 bytes as received (what eth_getRawTransactionByHash answers). */
  readonly raw: Uint8Array
}

/** A signed user transaction (not a deposit): what the pool holds and fees apply to. */
export interface UserTxRecord extends TxRecord {
  readonly tx: TypedTransaction
}

/** The part of a log the EVM produced. */
export interface LogBody {
  readonly address: Uint8Array
  readonly topics: readonly Uint8Array[]
  readonly data: Uint8Array
}

/** A log with its place in its block (for a pending block: the pending number and hash at that flashblock). */
export interface LogRecord extends LogBody {
  readonly blockNumber: bigint
  readonly blockHash: Uint8Array
  readonly blockTimestamp: bigint
  readonly transactionHash: Uint8Array
  readonly transactionIndex: number
  /** Index among all logs of the block. */
  readonly logIndex: number
}

/** What execution decided about one transaction. Its block position lives in the BlockRecord. */
export interface ReceiptRecord {
  readonly type: number
  readonly status: 0 | 1
  /** A pre-Byzantium receipt's post-transaction state root (geth then reports `root`, not `status`). */
  readonly root?: Uint8Array
  /** A blob transaction's blob gas and the blob base fee it paid. */
  readonly blobGasUsed?: bigint
  readonly blobGasPrice?: bigint
  /** Gas this transaction used (after refunds). */
  readonly gasUsed: bigint
  readonly cumulativeGasUsed: bigint
  readonly effectiveGasPrice: bigint
  readonly logsBloom: Uint8Array
  readonly logs: readonly LogBody[]
  /** Set for a contract creation that succeeded or failed (the address it would have had). */
  readonly contractAddress?: Uint8Array
  /** Block-wide index of this receipt's first log. */
  readonly firstLogIndex: number
  /** A deposit's: the sender's nonce before it ran (the receipt's depositNonce). */
  readonly depositNonce?: bigint
  /** OP Stack fees beyond gas (L1 data fee, operator fee) when the chain charges them. */
  readonly op?: OpReceiptFees
}

/** A block (canonical, or the pending block as of one flashblock). Immutable once built. */
export interface BlockRecord {
  readonly number: bigint
  readonly hash: Uint8Array
  readonly header: BlockHeader
  readonly txs: readonly TxRecord[]
  readonly receipts: readonly ReceiptRecord[]
  /** Every log of the block in order, with positions filled in. */
  readonly logs: readonly LogRecord[]
  /** RLP size of the whole block in bytes (eth_getBlockBy* `size`). */
  readonly size: number
  /** Validator withdrawals (an imported post-Shanghai block's; built blocks have none). */
  readonly withdrawals?: readonly Withdrawal[]
  /** An imported pre-merge block's uncle headers (its raw form carries them, its JSON their hashes). */
  readonly uncles?: readonly BlockHeader[]
}

/** Where a transaction sits. `pending` is true for a preconfirmed (not yet canonical) one. */
export interface TxLocation {
  readonly block: BlockRecord
  readonly index: number
  readonly tx: TxRecord
  readonly receipt: ReceiptRecord
  readonly pending: boolean
}

// ---- flashblocks: the raw feed payload in domain form ----

/** The block's fixed properties; only on index 0. */
export interface FlashblockBase {
  readonly parentBeaconBlockRoot: Uint8Array
  readonly parentHash: Uint8Array
  readonly feeRecipient: Uint8Array
  readonly prevRandao: Uint8Array
  readonly blockNumber: bigint
  readonly gasLimit: bigint
  readonly timestamp: bigint
  readonly extraData: Uint8Array
  readonly baseFeePerGas: bigint
}

/** Roots, bloom, gas and hash are cumulative for the block so far; transactions/withdrawals are new ones only. */
interface FlashblockDiff {
  readonly stateRoot: Uint8Array
  readonly receiptsRoot: Uint8Array
  readonly logsBloom: Uint8Array
  readonly gasUsed: bigint
  readonly blockHash: Uint8Array
  /** EIP-2718 bytes of the transactions new in this flashblock. */
  readonly transactions: readonly Uint8Array[]
  readonly withdrawals: readonly never[]
  readonly withdrawalsRoot: Uint8Array
  readonly blobGasUsed?: bigint
  /**
   * Lagoon's post-execution (0x7d) transaction as of this flashblock (op-rbuilder's `diff.post_exec_tx`): the
   * newest one closes the block when it is sealed. Kept as received: this EVM does not run the type.
   */
  readonly postExecTx?: Uint8Array
}

/** A receipt as the feed's metadata carries it (externally tagged by `txType` on the wire). */
export interface FlashblockMetaReceipt {
  readonly transactionHash: Uint8Array
  readonly txType: number
  readonly status: 0 | 1
  readonly cumulativeGasUsed: bigint
  readonly logs: readonly LogBody[]
  /** A deposit's (tagged `Deposit` on the wire, with depositReceiptVersion). */
  readonly depositNonce?: bigint
}

interface FlashblockMetadata {
  /** A JSON number on the wire. */
  readonly blockNumber: bigint
  /** Balances after this flashblock of the accounts it touched. */
  readonly newAccountBalances: readonly { readonly address: Uint8Array; readonly balance: bigint }[]
  /** Receipts of this flashblock's new transactions. */
  readonly receipts: readonly FlashblockMetaReceipt[]
  /** X Layer's EIP-7928 flashblock access list (RLP), as received; a follower re-executes instead. */
  readonly accessList?: Uint8Array
}

/** Exactly what the raw feed carries (a follower's decoder produces this from an upstream socket). */
export interface FlashblockPayload {
  /** 8 bytes, new for every block. */
  readonly payloadId: Uint8Array
  readonly index: number
  readonly base?: FlashblockBase
  readonly diff: FlashblockDiff
  readonly metadata: FlashblockMetadata
  /** X Layer: the index its builder plans to reach in this block (0 on index 0, as xlayer-reth sends it). */
  readonly targetIndex?: number
}

/** The executed records behind a payload, so local consumers need not re-execute. */
export interface FlashblockExecution {
  /** The header as if the block were sealed now; its hash is `diff.blockHash`. */
  readonly header: BlockHeader
  /** The transactions new in this flashblock, in order. */
  readonly txs: readonly TxRecord[]
  /** Their receipts (cumulative gas and log indexes are block-wide). */
  readonly receipts: readonly ReceiptRecord[]
}

/** What the sequencer emits every flashblock interval and the pending store consumes. */
export interface Flashblock extends FlashblockPayload {
  readonly executed: FlashblockExecution
  /** Wall-clock facts for the benchmark: when it was due, when it was published, how long it took. */
  readonly timing?: { readonly dueAt: number; readonly publishedAt: number; readonly buildMs: number }
}

/** A dev account unlocked on this chain (eth_sendTransaction, eth_sign). */
export interface DevAccount {
  readonly address: Uint8Array
  readonly privateKey: Uint8Array
}
