/**
 * Reading the chain as one endpoint shows it: the handlers' only read path for blocks, transactions,
 * receipts and state. The embedded chain answers from memory (src/pending/resolver.ts over its stores); a
 * follower answers the same questions from an upstream node and its flashblocks feed, so every read is
 * a Promise here even where the embedded answer is immediate.
 */
import type { Eventually } from './eventually.js'
import type { Endpoint } from '../../generated/methods.js'
import type { BlockTag } from '../../generated/types.js'
import type { BlockRecord, TxLocation, TxRecord } from '../domain/types.js'

/** A block parameter: a tag, a number, or an EIP-1898 object. */
export type BlockSelector =
  | BlockTag
  | bigint
  | { readonly blockHash: Uint8Array; readonly requireCanonical?: boolean }
  | { readonly blockNumber: bigint | BlockTag }

/**
 * EIP-1186: an account and some of its slots, with the trie nodes proving them against the block's state
 * root. An account that does not exist has zero codeHash and storageHash and empty slot proofs, as geth.
 */
export interface AccountProof {
  readonly balance: bigint
  readonly nonce: bigint
  readonly codeHash: Uint8Array
  readonly storageHash: Uint8Array
  readonly accountProof: readonly Uint8Array[]
  /** In the order asked for. */
  readonly storageProof: readonly { readonly value: bigint; readonly proof: readonly Uint8Array[] }[]
}

/** Accounts as of one block. Absent accounts read as zero balance and nonce, empty code and storage. */
export interface StateView {
  balance(address: Uint8Array): Eventually<bigint>
  nonce(address: Uint8Array): Eventually<bigint>
  code(address: Uint8Array): Promise<Uint8Array>
  /** The stored word with leading zeros stripped, as the trie keeps it. */
  storage(address: Uint8Array, slot: Uint8Array): Promise<Uint8Array>
  /** eth_getProof: the account and the given 32-byte slots, proved. */
  proof(address: Uint8Array, slots: readonly Uint8Array[]): Promise<AccountProof>
}

/**
 * One endpoint's view: `pending` is the latest canonical block on `general` and the newest flashblock's
 * block on `flashblocks` (never undefined); lookups by hash try canonical first, then the pending block.
 */
export interface BlockReader {
  readonly endpoint: Endpoint
  latest(): Promise<BlockRecord>
  /** What `pending` means on this endpoint. */
  pendingBlock(): Promise<BlockRecord>
  /** eth_blockNumber: the pending height for `pending` on flashblocks, else the canonical height. */
  blockNumber(tag?: 'latest' | 'pending'): Promise<bigint>
  /** The block a selector names, or undefined for an unknown number or hash. */
  block(selector: BlockSelector): Eventually<BlockRecord | undefined>
  blockByHash(hash: Uint8Array): Promise<BlockRecord | undefined>
  /** A transaction in a block this endpoint shows. */
  tx(hash: Uint8Array): Promise<TxLocation | undefined>
  /** A transaction known but in no block this endpoint shows: pooled, or preconfirmed seen from `general`. */
  unsealedTx(hash: Uint8Array): Promise<TxRecord | undefined>
  /** State as of the selected block, or undefined when this endpoint does not know the block. */
  state(selector: BlockSelector): Eventually<StateView | undefined>
  /** The oldest block whose state this endpoint serves (eth_capabilities); absent: genesis. */
  oldestState?(): bigint
  /** eth_getTransactionCount at `pending`: preconfirmed transactions and the pool's consecutive nonces count. */
  pendingNonce(address: Uint8Array): Promise<bigint>
}
