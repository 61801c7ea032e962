/**
 * Re-executes a feed's flashblocks on upstream-backed state with the embedded chain's own FlashBuilder, so a
 * follower's pending block has real receipts, logs, balances and nonces and reaches the pending store,
 * resolver, relay and subscriptions as the same Flashblock values the local sequencer makes. A block starts
 * on its parent's upstream state (at the parent's number) or, when the upstream is not there yet, on the
 * state this re-executor left after the parent's last flashblock (matched by hash). Roots come from the feed
 * (upstream-backed state cannot compute them); receipts, gas, bloom and hash come from re-execution, which
 * wins over the feed's metadata receipts: a difference is counted and logged.
 */
import type { ReexecutionStats } from '../capabilities/backend-status.js'
import type { Common } from '@ethereumjs/common'
import type { EVM, EVMMockBlockchainInterface } from '@ethereumjs/evm'
import { bytesToHex, equalsBytes } from '@ethereumjs/util'
import { createVM } from '@ethereumjs/vm'
import { keyOf } from '../domain/block-record.js'
import { throwawayVmCommon } from '../evm/chain-common.js'
import { FlashBuilder } from '../evm/flash-builder.js'
import { interpreterByDefault } from '../evm/interpreter/call.js'
import { patchReexecutionEvm } from '../evm/patches/install.js'
import { followedExtraDataProblem } from '../opstack/eip1559-params.js'
import { presetOfChain } from '../opstack/networks.js'
import type { Flashblock, FlashblockExecution, FlashblockPayload, TxRecord } from '../domain/types.js'
import { ReexecutionError } from '../errors.js'
import { parseData } from '../format/hex.js'
import { classifyFlashblock, type SequencePosition } from '../pending/sequence.js'
import { discoverReads, needsDiscovery } from './discover.js'
import { decodeFeedTx, type KnownTxs } from './feed-txs.js'
import { compareReceipts } from './receipt-check.js'
import { answerCreationCollisions } from './create-collision.js'
import { opStackReads } from '../opstack/op-fees.js'
import type { UpstreamRpc } from './upstream-rpc.js'
import { UpstreamSnapshot } from './upstream-snapshot.js'
import { UpstreamStateManager } from './upstream-state.js'

export interface ReexecutorOptions {
  common: Common
  upstream: UpstreamRpc
  /** BLOCKHASH answers; default: the upstream's eth_getBlockByNumber. */
  blockHashes?: EVMMockBlockchainInterface
  /** The upstream reads of a block (share one per block with pending reads); default: a new one each block. */
  snapshotFor?: (blockNumber: bigint) => UpstreamSnapshot
  warn?: (message: string) => void
  /** Charge OP Stack L1 data and operator fees as the followed chain does (default on, as the embedded chain; nothing without an L1Block). */
  opFees?: boolean
  /** Transactions decoded here already (forwarded ones): not decoded again. */
  known?: KnownTxs
  /** Outermost frames on the EVM interpreter (patchReexecutionEvm); default: unless PRECONF_EVM_INTERPRETER=0. */
  evmInterpreter?: boolean
}

export type ReexecuteResult =
  | {
      readonly kind: 'applied'
      readonly flashblock: Flashblock
      readonly state: UpstreamStateManager
      readonly upstreamRequests: number
    }
  | { readonly kind: 'ignored'; readonly reason: 'duplicate' | 'stale' }
  | { readonly kind: 'dropped'; readonly reason: string }

interface Open {
  readonly position: SequencePosition
  readonly builder: FlashBuilder
  readonly state: UpstreamStateManager
  readonly evm: EVM
}

export class Reexecutor {
  readonly stats: ReexecutionStats = {
    flashblocks: 0,
    transactions: 0,
    receiptMismatches: 0,
    hashMismatches: 0,
    failures: 0,
  }
  private open: Open | undefined
  /** The last flashblock's state and hash: the parent state of the next block if the upstream lags. */
  private last: { hash: Uint8Array; state: UpstreamStateManager } | undefined
  private lock: Promise<unknown> = Promise.resolve()
  private readonly blockHashes: EVMMockBlockchainInterface

  constructor(private readonly options: ReexecutorOptions) {
    this.blockHashes = options.blockHashes ?? upstreamBlockHashes(options.upstream)
  }

  /** The block being re-executed and its newest index. */
  get position(): SequencePosition | undefined {
    return this.open?.position
  }

  /**
   * Applies one decoded feed payload in arrival order (calls are queued); `canonicalHeight` is the upstream
   * head. `rebuilt`: a replay on another parent than the feed's, whose hash cannot be the feed's. `txs`:
   * the payload's transactions already decoded (senders recovered) when it arrived.
   */
  apply(
    payload: FlashblockPayload,
    canonicalHeight: bigint,
    options: { rebuilt?: boolean; txs?: readonly TxRecord[] } = {},
  ): Promise<ReexecuteResult> {
    const run = this.lock.then(() => this.step(payload, canonicalHeight, options.rebuilt ?? false, options.txs))
    this.lock = run.catch(() => {})
    return run
  }

  /** Whether a block whose parent has this hash can start on the state this re-executor left (no upstream wait). */
  continues(parentHash: Uint8Array): boolean {
    return this.last !== undefined && equalsBytes(this.last.hash, parentHash)
  }

  /** Forgets the block in progress (canonical took it, the feed went idle). */
  drop(): void {
    this.open = undefined
  }

  /** Forgets the block in progress and the state the last one left (a reorg: it is no one's parent now). */
  reset(): void {
    this.open = undefined
    this.last = undefined
  }

  private async step(
    payload: FlashblockPayload,
    canonicalHeight: bigint,
    rebuilt: boolean,
    decoded: readonly TxRecord[] | undefined,
  ): Promise<ReexecuteResult> {
    const verdict = classifyFlashblock(this.open?.position, payload, canonicalHeight)
    if (verdict.kind === 'duplicate' || verdict.kind === 'stale') return { kind: 'ignored', reason: verdict.kind }
    if (verdict.kind === 'break') return this.fail(verdict.reason, false)
    try {
      const open = verdict.kind === 'start' ? await this.start(payload, canonicalHeight) : this.open!
      return await this.flash(open, payload, rebuilt, decoded)
    } catch (err) {
      return this.fail(`flashblock ${keyOf(payload.payloadId)}#${payload.index}: ${(err as Error).message}`, true)
    }
  }

  private async start(payload: FlashblockPayload, canonicalHeight: bigint): Promise<Open> {
    const base = payload.base!
    const preset = presetOfChain(this.options.common.chainId())
    const problem = followedExtraDataProblem(base.extraData, preset && base.timestamp >= preset.jovianTime)
    if (problem) throw new ReexecutionError(`block ${base.blockNumber}: ${problem}`)
    const parentNumber = base.blockNumber - 1n
    let state: UpstreamStateManager
    if (parentNumber <= canonicalHeight) {
      const snapshot =
        this.options.snapshotFor?.(parentNumber) ?? new UpstreamSnapshot(this.options.upstream, parentNumber)
      state = new UpstreamStateManager(snapshot, this.options.common)
    } else if (this.last && equalsBytes(this.last.hash, base.parentHash)) {
      state = this.last.state.shallowCopy()
    } else {
      throw new ReexecutionError(
        `parent block ${parentNumber} is neither on the upstream (head ${canonicalHeight}) nor the last block re-executed here`,
      )
    }
    const vm = await createVM({
      common: throwawayVmCommon(this.options.common),
      stateManager: state,
      blockchain: this.blockHashes,
    })
    answerCreationCollisions(vm.evm as EVM)
    if (this.options.evmInterpreter ?? interpreterByDefault()) patchReexecutionEvm(vm.evm as EVM)
    const opFees = this.options.opFees ?? true
    // the sequencer's gasless budget is its own business: every transaction it included runs
    const builder = new FlashBuilder(vm, { base, payloadId: payload.payloadId, opFees, gasless: opFees })
    return {
      position: { payloadId: payload.payloadId, number: base.blockNumber, index: -1 },
      builder,
      state,
      evm: vm.evm as EVM,
    }
  }

  private async flash(
    open: Open,
    payload: FlashblockPayload,
    rebuilt: boolean,
    decoded: readonly TxRecord[] | undefined,
  ): Promise<ReexecuteResult> {
    const snapshot = open.state.snapshot
    const requestsBefore = snapshot.stats.requests
    const txs =
      decoded ??
      payload.diff.transactions.map((raw) => decodeFeedTransaction(raw, this.options.common, this.options.known))
    const discover = needsDiscovery(snapshot, txs)
    const op = opStackReads()
    // one upstream deadline per frame: a stall fails the frame's later reads at once, and the frame with it
    const { flashblock, skipped } = await snapshot.frame(async () => {
      await snapshot.prefetch(
        [...touchedAccounts(txs, payload), ...op.accounts],
        [...accessListSlots(txs), ...op.slots],
      )
      if (discover) await discoverReads(open.evm, txs)
      return open.builder.flash(txs, { stateRoot: payload.diff.stateRoot, allOrNothing: true })
    })
    if (skipped.length || flashblock.executed.txs.length !== txs.length) {
      const why = skipped[0] ? `${bytesToHex(skipped[0].tx.hash)}: ${skipped[0].reason}` : 'not every transaction ran'
      throw new ReexecutionError(`a transaction the sequencer included does not execute on the parent state (${why})`)
    }
    this.check(payload, flashblock.executed, rebuilt ? undefined : flashblock.diff.blockHash)
    const state = open.state.shallowCopy()
    state.root = payload.diff.stateRoot
    this.open = { ...open, position: { ...open.position, index: payload.index } }
    // the next block names its parent by the feed's hash (the same as ours unless this is a rebuild)
    this.last = { hash: payload.diff.blockHash, state }
    this.stats.flashblocks++
    this.stats.transactions += txs.length
    // the upstream's planned last index goes on with the flashblock (a follower's relay writes it as X Layer's)
    const relayed = payload.targetIndex === undefined ? flashblock : { ...flashblock, targetIndex: payload.targetIndex }
    return { kind: 'applied', flashblock: relayed, state, upstreamRequests: snapshot.stats.requests - requestsBefore }
  }

  /** `hash`: the re-executed block hash to compare with the feed's, unless a rebuild makes them differ. */
  private check(payload: FlashblockPayload, executed: FlashblockExecution, hash: Uint8Array | undefined): void {
    const where = `flashblock ${keyOf(payload.payloadId)}#${payload.index}`
    for (const problem of compareReceipts(payload.metadata.receipts, executed.txs, executed.receipts)) {
      this.stats.receiptMismatches++
      this.options.warn?.(`${where}: ${problem}; re-execution wins`)
    }
    if (hash && !equalsBytes(hash, payload.diff.blockHash)) {
      this.stats.hashMismatches++
      this.options.warn?.(
        `${where}: re-executed block hash ${bytesToHex(hash)} differs from the feed's ${bytesToHex(payload.diff.blockHash)}`,
      )
    }
  }

  private fail(reason: string, counted: boolean): ReexecuteResult {
    if (counted) this.stats.failures++
    this.options.warn?.(reason)
    this.open = undefined
    return { kind: 'dropped', reason }
  }
}

function decodeFeedTransaction(raw: Uint8Array, common: Common, known: KnownTxs | undefined): TxRecord {
  try {
    return decodeFeedTx(raw, common, known)
  } catch (err) {
    throw new ReexecutionError(
      `undecodable transaction ${bytesToHex(raw.subarray(0, 8))}...: ${(err as Error).message}`,
    )
  }
}

/** Senders, recipients, the fee recipient and access-list addresses: what the flashblock reads first. */
function touchedAccounts(txs: readonly TxRecord[], payload: FlashblockPayload): Uint8Array[] {
  const out = new Map<string, Uint8Array>()
  const add = (a: Uint8Array | undefined) => a && out.set(keyOf(a), a)
  if (payload.base) add(payload.base.feeRecipient)
  for (const { tx, sender } of txs) {
    add(sender)
    add(tx.to?.bytes)
    for (const [address] of accessList(tx)) add(address)
  }
  return [...out.values()]
}

function accessListSlots(txs: readonly TxRecord[]): { address: Uint8Array; slot: Uint8Array }[] {
  return txs.flatMap(({ tx }) => accessList(tx).flatMap(([address, slots]) => slots.map((slot) => ({ address, slot }))))
}

function accessList(tx: TxRecord['tx']): [Uint8Array, Uint8Array[]][] {
  return 'accessList' in tx ? (tx.accessList as [Uint8Array, Uint8Array[]][]) : []
}

function upstreamBlockHashes(upstream: UpstreamRpc): EVMMockBlockchainInterface {
  const hashes: EVMMockBlockchainInterface = {
    async getBlock(n: number) {
      const block = await upstream.call<{ hash: string } | null>('eth_getBlockByNumber', [`0x${n.toString(16)}`, false])
      const hash = block ? parseData(block.hash) : new Uint8Array(32)
      return { hash: () => hash }
    },
    async putBlock() {},
    shallowCopy: () => hashes,
  }
  return hashes
}
