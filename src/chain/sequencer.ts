/**
 * The sequencer: every flashblock interval it executes the pool's ready transactions on top of the
 * block in progress and publishes flashblock index 0, 1, 2, ...; every block time it seals that block
 * (empty ones too) and starts the next under a new payload id. Ticks run on a self-rescheduling timer
 * aimed at absolute due times: a slow flashblock is published late, never dropped, and the schedule
 * re-anchors (at a block start or within a block) instead of bursting to catch up. Manual buildNow/sealNow
 * share the same lock as the timer.
 */
import { randomBytes } from 'node:crypto'
import type { MerkleStateManager } from '@ethereumjs/statemanager'
import { equalsBytes } from '@ethereumjs/util'
import type { VM } from '@ethereumjs/vm'
import { keccak256 } from '../evm/crypto.js'
import { stateAt } from '../evm/state-views.js'
import { type BlockParams, FlashBuilder } from '../evm/flash-builder.js'
import type { TxPool } from './pool/pool.js'
import type { CanonicalStore } from './store.js'
import type { BlockRecord, Flashblock, TxRecord } from '../domain/types.js'
import { CadenceStats } from './cadence-stats.js'
import { heldDeposits, l1InfoRecord, withOpeningDeposits } from '../opstack/block-opening.js'
import { nextBaseFee } from '../opstack/base-fee.js'
import { FLASHBLOCK_EXECUTION_SHARE } from '../limits.js'
import type { ReplayStep, SequencerHooks, SequencerOptions } from './sequencer-options.js'

export type { NextBlockSettings, ReplayStep, SequencerHooks, SequencerOptions } from './sequencer-options.js'

/** What the pool reads of the head state. */
type HeadState = Pick<MerkleStateManager, 'getAccount' | 'getCode'>

/**
 * Until when a flashblock due at `due` may start transactions: its share of the interval, counted from when
 * its build starts if that is later. A timer that fires late (a busy event loop, a busy machine) shortens the
 * cadence's slack, not the build: counted from `due`, every late tick had no time left and built nothing.
 */
function executionDeadline(due: number, interval: number): number {
  return Math.max(due, performance.now()) + interval * FLASHBLOCK_EXECUTION_SHARE
}

export class Sequencer {
  readonly stats = new CadenceStats()
  private open: FlashBuilder | undefined
  private openParams: BlockParams | undefined
  private lock: Promise<unknown> = Promise.resolve()
  private timer: NodeJS.Timeout | undefined
  private running = false
  private blockDue = 0
  /**
   * The most gas a block's L1-info deposit has used (it varies a little with the values it stores): the pool
   * refuses a transaction the rest of a block cannot hold.
   */
  private openingGas: bigint | undefined
  /** The pool's view of the newest root, kept while the root stays (empty flashblocks, the seal after them). */
  private headView: { root: Uint8Array; state: HeadState } | undefined

  constructor(
    private readonly vm: VM,
    private readonly pool: TxPool,
    private readonly store: CanonicalStore,
    private readonly hooks: SequencerHooks,
    private readonly options: SequencerOptions,
  ) {
    this.stats.lateThresholdMs = options.flashblockIntervalMs
  }

  get isRunning(): boolean {
    return this.running
  }

  /** Number of the block in progress, if one is open. */
  get openBlock(): bigint | undefined {
    return this.open?.number
  }

  /** The parameters the open block was opened with (a dev snapshot keeps them to rebuild it). */
  get openBlockParams(): BlockParams | undefined {
    return this.open && this.openParams
  }

  /** The block time, changed by evm_setIntervalMining; the next block is due that long after the open one started. */
  setBlockTime(ms: number): void {
    this.options.blockTimeMs = ms
  }

  /** Runs `work` between flashblocks: nothing is built or sealed meanwhile (the dev node's edits and rewinds). */
  locked<T>(work: () => Promise<T>): Promise<T> {
    return this.exclusive(work)
  }

  /**
   * Inside `locked`: forgets the open block without sealing it. The caller puts the state back where the
   * block started and tells the pending store.
   */
  discardOpen(): void {
    this.open = undefined
    this.openParams = undefined
  }

  /** Inside `locked`: opens the block with `params` and rebuilds it step by step, publishing each flashblock. */
  async replay(params: BlockParams, steps: readonly ReplayStep[]): Promise<void> {
    this.openBlockWith(params)
    for (const step of steps) {
      if (typeof step === 'function') await step()
      else await this.flash(performance.now(), undefined, step)
    }
  }

  start(): void {
    if (this.running) return
    this.running = true
    this.schedule(performance.now())
  }

  /** Stops the timer and waits for a flashblock in progress; the open block stays open. */
  async stop(): Promise<void> {
    this.running = false
    if (this.timer) clearTimeout(this.timer)
    this.timer = undefined
    await this.lock.catch(() => {})
  }

  /** Builds the next flashblock now (index 0 of a new block if none is open). */
  buildNow(): Promise<Flashblock> {
    return this.exclusive(() => this.flash(performance.now(), undefined))
  }

  /** Seals the open block now (opening and publishing an empty index 0 first if needed). */
  sealNow(): Promise<BlockRecord> {
    return this.exclusive(() => this.seal())
  }

  /**
   * After a restart: opens the block in progress again with its journaled parameters and re-executes each
   * journaled flashblock's transactions in order, publishing them again. Returns the transactions that did
   * not execute as before (none, unless the engine changed under the data directory).
   */
  resume(params: BlockParams, flashblocks: readonly (readonly TxRecord[])[]): Promise<TxRecord[]> {
    return this.exclusive(async () => {
      this.openBlockWith(params)
      const lost: TxRecord[] = []
      for (const txs of flashblocks) {
        const fb = await this.flash(performance.now(), undefined, txs)
        const included = new Set(fb.executed.txs)
        lost.push(...txs.filter((t) => !included.has(t)))
      }
      return lost
    })
  }

  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = this.lock.then(work, work)
    this.lock = run.catch(() => {})
    return run
  }

  private schedule(due: number): void {
    if (!this.running) return
    this.timer = setTimeout(
      () => {
        this.exclusive(() => this.tick(due)).catch((err) =>
          this.options.warn(`sequencer tick failed: ${(err as Error).stack ?? err}`),
        )
      },
      Math.max(0, due - performance.now()),
    )
    this.timer.unref?.()
  }

  private async tick(due: number): Promise<void> {
    const interval = this.options.flashblockIntervalMs
    let next: number | undefined
    try {
      this.stats.recordTick(performance.now() - due)
      if (!this.open || due >= this.blockDue) {
        if (this.open) await this.seal()
        const now = performance.now()
        const start = now - due > interval ? now : due // late by a whole interval: re-anchor the cadence
        this.blockDue = start + this.options.blockTimeMs
        await this.flash(start, executionDeadline(start, interval))
        next = start + interval
      } else {
        // within a block too: a tick late by a whole interval re-anchors, or a machine that stays slower than
        // the cadence would start every flashblock of a long block past its execution deadline
        const now = performance.now()
        const start = now - due > interval ? now : due
        await this.flash(start, executionDeadline(start, interval))
        next = start + interval
      }
    } finally {
      // reschedule even after a failure: the cadence must not die with one bad flashblock
      next ??= performance.now() + interval
      if (next > this.blockDue) next = this.blockDue
      this.schedule(Math.max(next, performance.now()))
    }
  }

  private async flash(
    dueAt: number,
    deadline: number | undefined,
    candidates?: Iterable<TxRecord>,
  ): Promise<Flashblock> {
    const t0 = performance.now()
    const builder = this.open ?? this.startBlock()
    // index 0 opens with the L1-info deposit and the deposits sent since the last block (OP Stack)
    // a block resumed from the journal brings its own transactions, its L1-info deposit included
    const l1Info =
      !candidates && builder.index === 0 && this.options.opStack !== false
        ? l1InfoRecord(this.store.latest(), builder.base.timestamp, this.options.l1Settings)
        : undefined
    const next =
      candidates ??
      (l1Info ? withOpeningDeposits([l1Info, ...this.pool.takeDeposits()], this.pool.ready()) : this.pool.ready())
    const { flashblock, skipped } = await builder.flash(next, {
      deadline,
      cachedEntries: this.options.liveStateCachedEntries,
    })
    const opening = l1Info ? flashblock.executed.txs.indexOf(l1Info) : -1
    const openingGas = opening >= 0 ? flashblock.executed.receipts[opening].gasUsed : 0n
    if (openingGas > (this.openingGas ?? 0n)) this.openingGas = openingGas
    this.pool.returnDeposits(heldDeposits(skipped.map((s) => s.tx)))
    for (const s of skipped) {
      if (!s.drop) continue
      this.pool.drop(s.tx.hash, s.reason)
      this.options.warn(`dropped transaction ${keyHex(s.tx.hash)}: ${s.reason}`)
    }
    this.pool.setHead({
      state: this.viewOf(flashblock.diff.stateRoot),
      baseFee: builder.baseFee,
      gasLimit: builder.gasLimit,
      openingGas: this.openingGas,
    })
    const publishedAt = performance.now()
    const published: Flashblock = { ...flashblock, timing: { dueAt, publishedAt, buildMs: publishedAt - t0 } }
    await this.hooks.journal?.flashblock(published, this.openParams!)
    this.stats.recordBuild(publishedAt - t0, publishedAt - dueAt)
    this.hooks.onFlashblock(published)
    await this.pool.refresh([...flashblock.executed.txs.map((t) => t.sender), ...skipped.map((s) => s.tx.sender)])
    return published
  }

  private async seal(): Promise<BlockRecord> {
    if (!this.open || this.open.index === 0) await this.flash(performance.now(), undefined)
    const builder = this.open!
    const block = builder.seal()
    await this.hooks.journal?.sealed(block)
    this.open = undefined
    this.hooks.onSealed(block)
    this.pool.setHead({
      state: this.viewOf(block.header.stateRoot),
      baseFee: nextBaseFee(block.header),
      gasLimit: block.header.gasLimit,
      openingGas: this.openingGas,
    })
    this.options.log(
      `block ${block.number} sealed: ${block.txs.length} txs, ${block.header.gasUsed} gas, ${builder.index} flashblocks`,
    )
    return block
  }

  /**
   * The pool's reads of `root`. The state view (a trie copy, a state manager and its caches: ~0.2 ms and a
   * dozen debug loggers) is made at the pool's first read: an idle chain's pool reads nothing, every block.
   */
  private viewOf(root: Uint8Array): HeadState {
    if (this.headView && equalsBytes(this.headView.root, root)) return this.headView.state
    let view: MerkleStateManager | undefined
    const state = () => (view ??= stateAt(this.vm, root))
    this.headView = {
      root,
      state: { getAccount: (address) => state().getAccount(address), getCode: (address) => state().getCode(address) },
    }
    return this.headView.state
  }

  private startBlock(): FlashBuilder {
    const parent = this.store.latest()
    const settings = this.options.nextBlock?.(parent) ?? {}
    const now = settings.timestamp ?? BigInt(Math.floor(Date.now() / 1000))
    const minimum = parent.header.timestamp + 1n
    return this.openBlockWith({
      timestamp: now > minimum ? now : minimum,
      coinbase: settings.coinbase ?? this.options.coinbase,
      prevRandao: keccak256(parent.hash),
      payloadId: new Uint8Array(randomBytes(8)),
      ...(settings.gasLimit !== undefined ? { gasLimit: settings.gasLimit } : {}),
      ...(settings.baseFee !== undefined ? { baseFee: settings.baseFee } : {}),
    })
  }

  private openBlockWith(params: Omit<BlockParams, 'opFees' | 'extraData' | 'gaslessBudget'>): FlashBuilder {
    this.openParams = {
      ...params,
      opFees: this.options.opFees,
      extraData: this.options.extraData?.(params.timestamp),
      gaslessBudget: this.options.gaslessBudget,
    }
    this.open = new FlashBuilder(this.vm, this.store.latest(), this.openParams)
    return this.open
  }
}

function keyHex(bytes: Uint8Array): string {
  return `0x${Buffer.from(bytes).toString('hex')}`
}
