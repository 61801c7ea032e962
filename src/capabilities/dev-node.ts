/**
 * The dev node's controls (anvil_*, evm_*, hardhat_*): state edits without a transaction, snapshots, time
 * travel, mining on demand, impersonation. Only the embedded chain has them, and the service hands them
 * to handlers only where dev methods are served (src/config.ts devMethodsServed): never in follower mode.
 */
import type { FilledRequest } from '../domain/call-request.js'

/** anvil_reset's `forking` (Hardhat's hardhat_reset names): a network to fork, at a block. */
export interface ForkingRequest {
  jsonRpcUrl?: string
  blockNumber?: bigint
}

/** A kept snapshot: the block it was taken at. */
export interface SnapshotMark {
  id: bigint
  number: bigint
  hash: Uint8Array
}

export interface DevNode {
  // state edits: the latest and the pending state both change; no block is built
  setBalance(address: Uint8Array, balance: bigint): Promise<void>
  /** Each state's balance plus `amount`, saturating at 2^256 - 1 (anvil_addBalance). */
  addBalance(address: Uint8Array, amount: bigint): Promise<void>
  setCode(address: Uint8Array, code: Uint8Array): Promise<void>
  setNonce(address: Uint8Array, nonce: bigint): Promise<void>
  /** `slot` and `value` as 32-byte words. */
  setStorageAt(address: Uint8Array, slot: Uint8Array, value: Uint8Array): Promise<void>

  // impersonation: eth_sendTransaction from these addresses needs no key
  impersonate(address: Uint8Array): void
  stopImpersonating(address: Uint8Array): void
  autoImpersonate(enabled: boolean): void
  isImpersonated(address: Uint8Array): boolean
  /** Explicitly impersonated addresses (eth_accounts lists them, as anvil does). */
  impersonated(): Uint8Array[]
  /** Admits the request as an impersonated transaction of `request.from`; resolves to its hash. */
  sendImpersonated(request: FilledRequest & { from: Uint8Array }): Promise<Uint8Array>

  // mining and time
  /** Seals `blocks` blocks now, the first with what the open block preconfirmed plus the pool; `interval` s apart. */
  mine(blocks: bigint, interval?: bigint): Promise<void>
  /** evm_mine: as mine, the first block at `timestamp` when given. */
  mineAt(timestamp: bigint | undefined, blocks: bigint): Promise<void>
  /** Whether the sequencer's timers run (flashblocks and blocks on their own). */
  readonly automine: boolean
  setAutomine(enabled: boolean): Promise<void>
  /** 0 stops mining; otherwise a block every `seconds`. */
  setIntervalMining(seconds: bigint): Promise<void>
  /** The clock's offset after adding `seconds` (what anvil answers). */
  increaseTime(seconds: bigint): Promise<bigint>
  setNextBlockTimestamp(timestamp: bigint): Promise<void>
  setBlockTimestampInterval(seconds: bigint): Promise<void>
  /** false when no interval was set. */
  removeBlockTimestampInterval(): boolean
  setBlockGasLimit(gasLimit: bigint): Promise<void>
  setNextBlockBaseFee(baseFee: bigint): Promise<void>
  setCoinbase(address: Uint8Array): Promise<void>

  // the pool
  /** The hash when the transaction was in the pool. */
  dropTransaction(hash: Uint8Array): Uint8Array | undefined
  dropAllTransactions(): void

  // snapshots and whole-chain state
  snapshot(): Promise<bigint>
  /** false for an unknown id; the snapshot and every later one are used up. */
  revert(id: bigint): Promise<boolean>
  /** Without `forking`: the chain as it started; with it: refused until fork mode exists. */
  reset(forking?: ForkingRequest): Promise<void>
  /** anvil_dumpState: the state file (state-dump.ts's JSON), gzipped. */
  dumpState(): Promise<Uint8Array>
  /** anvil_loadState: a state file (gzipped or not) written over the current state. */
  loadState(bytes: Uint8Array): Promise<void>

  // about the node
  snapshots(): SnapshotMark[]
  /** Changes with every anvil_reset (anvil_metadata's instanceId). */
  readonly instanceId: Uint8Array
  setLoggingEnabled(enabled: boolean): void
}
