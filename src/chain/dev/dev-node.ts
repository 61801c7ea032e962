/**
 * The embedded chain's DevNode (src/capabilities/dev-node.ts): anvil's controls over a chain that builds
 * flashblocks. Everything that touches state or the open block runs inside the sequencer's lock, between
 * two flashblocks. Mining on demand is the chain's own mine() (one flashblock with what the pool holds,
 * then the seal), so `evm_mine` seals what the open block preconfirmed plus the pool.
 */
import { randomBytes } from 'node:crypto'
import { gunzipSync, gzipSync } from 'node:zlib'
import type { MerkleStateManager } from '@ethereumjs/statemanager'
import { MAX_INTEGER } from '@ethereumjs/util'
import type { FilledRequest } from '../../domain/call-request.js'
import type { DevNode, ForkingRequest, SnapshotMark } from '../../capabilities/dev-node.js'
import { InvalidParamsError, UnsupportedDevMethodError } from '../../errors.js'
import { DEV_MINE_MAX_BLOCKS } from '../../limits.js'
import type { DevChain } from './dev-chain.js'
import type { ReplayStep } from '../sequencer.js'
import { applyState, parseStateFile, StateFileError } from '../persist/state-load.js'
import { stateDumpOf } from '../persist/state-dump.js'
import { Impersonation, impersonatedTx } from './impersonation.js'
import { discardUntouchedBlock, rewind, type Snapshot, takeSnapshot } from './rewind.js'
import { accountEdit, applyEdit, codeEdit, type StateEdit, storageEdit } from './state-edits.js'

export class EmbeddedDevNode implements DevNode {
  private readonly impersonation = new Impersonation()
  private readonly kept = new Map<bigint, Snapshot>()
  private nextId = 0n
  /** How the open block was built: a flashblock's transactions, or an edit made between flashblocks. */
  private steps: ReplayStep[] = []
  /** The chain as it started: what anvil_reset goes back to. */
  private initial: Snapshot | undefined
  instanceId = new Uint8Array(randomBytes(32))

  constructor(private readonly chain: DevChain) {
    chain.events.on('flashblock', (fb) => {
      if (fb.index === 0) this.steps = []
      this.steps.push(fb.executed.txs)
    })
    chain.events.on('block', () => {
      this.steps = []
    })
    if (chain.store.rewindable) this.initial = takeSnapshot(chain, [])
    chain.options.pruner?.keep({
      resolve: (root) => chain.roots.resolve(root),
      held: () => [...(this.initial ? [this.initial.root] : []), ...[...this.kept.values()].map((s) => s.root)],
    })
  }

  setBalance(address: Uint8Array, balance: bigint): Promise<void> {
    return this.edit(accountEdit(address, (account) => (account.balance = balance)))
  }

  addBalance(address: Uint8Array, amount: bigint): Promise<void> {
    return this.edit(
      accountEdit(address, (account) => {
        const sum = account.balance + amount
        account.balance = sum > MAX_INTEGER ? MAX_INTEGER : sum
      }),
    )
  }

  setNonce(address: Uint8Array, nonce: bigint): Promise<void> {
    return this.edit(
      accountEdit(address, (account) => (account.nonce = nonce)),
      address,
    )
  }

  setCode(address: Uint8Array, code: Uint8Array): Promise<void> {
    return this.edit(codeEdit(address, code))
  }

  setStorageAt(address: Uint8Array, slot: Uint8Array, value: Uint8Array): Promise<void> {
    return this.edit(storageEdit(address, slot, value))
  }

  impersonate(address: Uint8Array): void {
    this.impersonation.add(address)
  }

  stopImpersonating(address: Uint8Array): void {
    this.impersonation.remove(address)
  }

  autoImpersonate(enabled: boolean): void {
    this.impersonation.setAuto(enabled)
  }

  isImpersonated(address: Uint8Array): boolean {
    return this.impersonation.has(address)
  }

  impersonated(): Uint8Array[] {
    return this.impersonation.list()
  }

  async sendImpersonated(request: FilledRequest & { from: Uint8Array }): Promise<Uint8Array> {
    const record = impersonatedTx(request, this.chain.common)
    const hash = await this.chain.pool.admit(record)
    // journaled before the hash is answered, as eth_sendRawTransaction's (--data-dir)
    await this.chain.persistence?.accepted(hash, record.raw)
    return hash
  }

  async mine(blocks: bigint, interval?: bigint): Promise<void> {
    if (blocks > DEV_MINE_MAX_BLOCKS)
      throw new InvalidParamsError(`at most ${DEV_MINE_MAX_BLOCKS} blocks can be mined in one call, got ${blocks}`)
    for (let i = 0n; i < blocks; i++) {
      if (interval !== undefined) {
        this.chain.nextBlock.clock.increase(interval)
        await this.reopenIfUntouched()
      }
      await this.chain.mine()
    }
  }

  async mineAt(timestamp: bigint | undefined, blocks: bigint): Promise<void> {
    if (timestamp !== undefined) await this.setNextBlockTimestamp(timestamp)
    await this.mine(blocks)
  }

  get automine(): boolean {
    return this.chain.sequencer.isRunning
  }

  async setAutomine(enabled: boolean): Promise<void> {
    if (enabled) this.chain.start()
    else await this.chain.sequencer.stop()
  }

  async setIntervalMining(seconds: bigint): Promise<void> {
    if (seconds === 0n) return this.chain.sequencer.stop()
    this.chain.sequencer.setBlockTime(Number(seconds) * 1000)
    this.chain.start()
  }

  async increaseTime(seconds: bigint): Promise<bigint> {
    const offset = this.chain.nextBlock.clock.increase(seconds)
    await this.reopenIfUntouched()
    return offset
  }

  async setNextBlockTimestamp(timestamp: bigint): Promise<void> {
    this.chain.nextBlock.clock.setNext(timestamp, this.chain.store.latest().header.timestamp)
    await this.reopenIfUntouched()
  }

  async setBlockTimestampInterval(seconds: bigint): Promise<void> {
    this.chain.nextBlock.clock.setInterval(seconds)
    await this.reopenIfUntouched()
  }

  removeBlockTimestampInterval(): boolean {
    return this.chain.nextBlock.clock.removeInterval()
  }

  async setBlockGasLimit(gasLimit: bigint): Promise<void> {
    this.chain.nextBlock.gasLimit = gasLimit
    await this.reopenIfUntouched()
  }

  async setNextBlockBaseFee(baseFee: bigint): Promise<void> {
    this.chain.nextBlock.baseFee = baseFee
    await this.reopenIfUntouched()
  }

  async setCoinbase(address: Uint8Array): Promise<void> {
    this.chain.nextBlock.coinbase = address.slice()
    await this.reopenIfUntouched()
  }

  dropTransaction(hash: Uint8Array): Uint8Array | undefined {
    if (!this.chain.pool.get(hash)) return undefined
    this.chain.pool.drop(hash, 'dropped by anvil_dropTransaction')
    return hash
  }

  dropAllTransactions(): void {
    this.chain.pool.clear('dropped by anvil_dropAllTransactions')
  }

  snapshot(): Promise<bigint> {
    this.requireRewindable('evm_snapshot')
    return this.chain.sequencer.locked(async () => {
      const id = this.nextId++
      this.kept.set(id, takeSnapshot(this.chain, this.steps))
      return id
    })
  }

  revert(id: bigint): Promise<boolean> {
    this.requireRewindable('evm_revert')
    return this.chain.sequencer.locked(async () => {
      const snapshot = this.kept.get(id)
      if (!snapshot) return false
      await this.rewindTo(snapshot, `reverted by evm_revert to snapshot ${id}`)
      // the snapshot is used up, and so is every one taken after it (anvil and Hardhat alike)
      for (const kept of [...this.kept.keys()]) if (kept >= id) this.kept.delete(kept)
      return true
    })
  }

  async reset(forking?: ForkingRequest): Promise<void> {
    if (forking) return this.refork(forking)
    this.requireRewindable('anvil_reset')
    const initial = this.initial!
    await this.chain.sequencer.locked(async () => {
      this.chain.nextBlock.clear()
      await this.rewindTo(initial, 'dropped by anvil_reset')
      this.kept.clear()
      this.impersonation.clear()
      this.chain.nextBlock.clock.clear()
      this.instanceId = new Uint8Array(randomBytes(32))
    })
  }

  /**
   * anvil_reset with `forking` on a chain started with --fork-url: the open block and the pool dropped, the
   * chain started again on the named node and block (chain.refork), every snapshot, impersonation and clock
   * setting forgotten, and the new fork block what a later plain reset goes back to.
   */
  private async refork(forking: ForkingRequest): Promise<void> {
    if (!this.chain.options.fork)
      throw new InvalidParamsError(
        forking.jsonRpcUrl === undefined
          ? 'Forking not enabled and RPC URL not provided to start forking'
          : 'anvil_reset: forking needs a chain started with --fork-url (a chain cannot become a fork while it runs)',
      )
    await this.chain.sequencer.locked(async () => {
      this.chain.nextBlock.clear()
      this.chain.sequencer.discardOpen()
      this.chain.pool.clear('dropped by anvil_reset')
      this.chain.roots.restore(new Map())
      await this.chain.refork({ url: forking.jsonRpcUrl, blockNumber: forking.blockNumber })
      this.chain.localExecutor.forgetCalls()
      this.steps = []
      this.kept.clear()
      this.impersonation.clear()
      this.chain.nextBlock.clock.clear()
      this.chain.nextBlock.clock.resetTo(this.chain.store.latest().header.timestamp)
      this.initial = takeSnapshot(this.chain, [])
      this.instanceId = new Uint8Array(randomBytes(32))
    })
  }

  async dumpState(): Promise<Uint8Array> {
    const head = this.chain.store.latest()
    const root = this.chain.roots.resolve(head.header.stateRoot)
    const dump = await stateDumpOf(this.chain.vm, root, head, this.chain.options.preimages)
    return new Uint8Array(gzipSync(JSON.stringify(dump)))
  }

  async loadState(bytes: Uint8Array): Promise<void> {
    const gzipped = bytes[0] === 0x1f && bytes[1] === 0x8b
    let accounts: ReturnType<typeof parseStateFile>
    try {
      const text = Buffer.from(gzipped ? gunzipSync(bytes) : bytes).toString('utf8')
      accounts = parseStateFile(text, 'anvil_loadState: the state')
    } catch (err) {
      if (err instanceof StateFileError) throw new InvalidParamsError(err.message)
      throw new InvalidParamsError(`anvil_loadState: the state is not gzip or JSON (${(err as Error).message})`)
    }
    await this.edit((state) => applyState(state, accounts))
  }

  snapshots(): SnapshotMark[] {
    return [...this.kept].map(([id, s]) => ({ id, number: s.height, hash: s.hash }))
  }

  setLoggingEnabled(enabled: boolean): void {
    this.chain.logger.enabled = enabled
  }

  private edit(edit: StateEdit, nonceOf?: Uint8Array): Promise<void> {
    return this.chain.sequencer.locked(async () => {
      if (await applyEdit(this.chain, edit)) this.steps.push(() => replayEdit(this.chain, edit))
      // a nonce set above pooled transactions makes them stale
      if (nonceOf) await this.chain.pool.refresh([nonceOf])
    })
  }

  /** Inside the lock: back to `snapshot`, the clock following its head as anvil's does. */
  private async rewindTo(snapshot: Snapshot, reason: string): Promise<void> {
    // --history's passes keep a snapshot's state; should it be gone all the same, refuse (missing trie node)
    // before anything is undone
    this.chain.options.pruner?.check(snapshot.root)
    await rewind(this.chain, snapshot, reason)
    this.steps = snapshot.open ? [...snapshot.open.steps] : []
    this.chain.nextBlock.clock.resetTo(this.chain.store.latest().header.timestamp)
  }

  /** A setting for the next block reaches the open block while nothing but deposits is in it (rewind.ts). */
  private reopenIfUntouched(): Promise<void> {
    return this.chain.sequencer.locked(async () => {
      if (await discardUntouchedBlock(this.chain)) this.steps = []
    })
  }

  private requireRewindable(method: string): void {
    if (!this.chain.store.rewindable) throw new UnsupportedDevMethodError(method)
  }
}

/** An edit made inside the open block, made again where a rebuild reaches it. */
async function replayEdit(chain: DevChain, edit: StateEdit): Promise<void> {
  const state = chain.vm.stateManager as MerkleStateManager
  await state.checkpoint()
  await edit(state)
  await state.commit()
}
