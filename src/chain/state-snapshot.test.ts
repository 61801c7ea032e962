/**
 * The state snapshot (src/evm/state-snapshot.ts) answers every account and slot of the newest sealed root and
 * of the pending flashblocks' roots exactly as the trie at that root does: new accounts, transfers, storage
 * written, overwritten and zeroed (a contract's whole storage emptied), across blocks, flashblocks and a
 * --data-dir restart; and a root it does not hold goes to the trie.
 */
import { Address, bytesToHex, createContractAddress, hexToBytes, randomBytes, setLengthLeft } from '@ethereumjs/util'
import { expect, test } from 'vitest'
import type { Chain } from './chain.js'
import { signTx } from '../../test/support/sign-tx.js'
import { runScript } from '../../test/support/run-script.js'
import { scratchChains } from '../../test/support/scratch-chain.js'
import { until } from '../../test/support/wait-for.js'
import { keccak256 } from '../evm/crypto.js'
import { accountOf, slotValueOf } from '../evm/flat-values.js'
import { SnapshotReads, StateSnapshot } from '../evm/state-snapshot.js'
import type { StateCache } from '../evm/state-cache.js'

/** Stores calldata's second word at the slot its first word names; init code returning that runtime. */
const STORE_INIT = hexToBytes('0x6008600c60003960086000f36020356000355500')

const chains = scratchChains('preconf-snapshot-')

const word = (n: bigint | Uint8Array) =>
  setLengthLeft(typeof n === 'bigint' ? hexToBytes(`0x${n.toString(16).padStart(2, '0')}`) : n, 32)

/** A chain driven by hand: transfers to new addresses and a contract's slots written and zeroed. */
class Driver {
  readonly addresses: Uint8Array[] = []
  readonly slots: Uint8Array[] = []
  private nonce = 0
  contract: Uint8Array = new Uint8Array(20)

  constructor(readonly chain: Chain) {
    this.addresses.push(...chain.accounts.map((a) => a.address))
  }

  async deploy(): Promise<void> {
    this.contract = createContractAddress(new Address(this.chain.accounts[0]!.address), BigInt(this.nonce)).bytes
    this.addresses.push(this.contract)
    await this.send({ to: null, data: STORE_INIT, gas: 200_000n })
  }

  async transfer(): Promise<void> {
    const to = randomBytes(20)
    this.addresses.push(to)
    await this.send({ to, value: 1_000n + BigInt(this.nonce) })
  }

  async store(slot: Uint8Array, value: bigint): Promise<void> {
    if (!this.slots.some((s) => s.every((b, i) => b === slot[i]))) this.slots.push(slot)
    await this.send({ to: this.contract, data: new Uint8Array([...word(slot), ...word(value)]), gas: 100_000n })
  }

  private async send(fields: Omit<Parameters<typeof signTx>[2], 'nonce'>): Promise<void> {
    await this.chain.sendRawTransaction(await signTx(this.chain, 0, { ...fields, nonce: this.nonce++ }))
  }

  /** Every known account and slot, and some nobody wrote, read through the snapshot and through the trie. */
  async compare(root: Uint8Array, snapshot = this.chain.snapshot!): Promise<void> {
    const reads = new SnapshotReads(snapshot, root)
    const trie = this.chain.stateAt(root)
    for (const address of [...this.addresses, randomBytes(20), randomBytes(20)]) {
      const flat = reads.account(keccak256(address))
      expect(flat, 'the snapshot answers for this root').not.toBeUndefined()
      const expected = await trie.getAccount(new Address(address))
      expect(flat ? accountOf(flat).serialize() : undefined).toEqual(expected?.serialize())
    }
    for (const slot of [...this.slots, randomBytes(32), word(0n)]) {
      const flat = reads.storage(keccak256(this.contract), keccak256(slot))
      expect(flat).not.toBeUndefined()
      const expected = await trie.getStorage(new Address(this.contract), slot)
      expect(flat ? slotValueOf(flat) : new Uint8Array()).toEqual(expected)
    }
  }
}

/** Blocks are sealed by hand: the hour-long block time never elapses in a test. */
const HAND_SEALED = { blockTimeMs: 3_600_000 }

async function ready(c: Chain): Promise<void> {
  await until(() => c.snapshot?.ready === true, 'the state snapshot is made')
}

async function ageChain(driver: Driver, blocks: number): Promise<void> {
  const c = driver.chain
  for (let block = 0; block < blocks; block++) {
    for (let i = 0; i < 4; i++) await driver.transfer()
    await driver.store(word(BigInt(block)), BigInt(block + 1))
    await driver.store(keccak256(randomBytes(8)), 7n)
    // a slot written two blocks ago set back to zero: deleted from the storage trie
    if (block >= 2) await driver.store(word(BigInt(block - 2)), 0n)
    const sealed = await c.sealNow()
    expect(sealed.receipts.every((r) => r.status === 1)).toBe(true)
    await driver.compare(c.store.latest().header.stateRoot)
  }
}

test('reads of the newest sealed root through the snapshot match the trie, block after block', async () => {
  const chain = await chains.open(HAND_SEALED)
  await ready(chain)
  const driver = new Driver(chain)
  await driver.deploy()
  await chain.sealNow()
  await driver.compare(chain.store.latest().header.stateRoot)
  await ageChain(driver, 6)
  // every slot zeroed: the contract's storage trie is empty again
  for (const slot of driver.slots) await driver.store(slot, 0n)
  await chain.sealNow()
  await driver.compare(chain.store.latest().header.stateRoot)
})

test('a pending flashblock root reads through a layer over the base, and an old root goes to the trie', async () => {
  const chain = await chains.open(HAND_SEALED)
  await ready(chain)
  const driver = new Driver(chain)
  await driver.deploy()
  await ageChain(driver, 2)
  const old = chain.store.latest().header.stateRoot
  for (let flashblock = 0; flashblock < 3; flashblock++) {
    await driver.transfer()
    await driver.store(word(BigInt(flashblock)), 0n)
    await driver.store(randomBytes(32), 9n)
    const fb = await chain.buildNow()
    await driver.compare(fb.diff.stateRoot)
    await driver.compare(chain.store.latest().header.stateRoot)
  }
  await chain.sealNow()
  await driver.compare(chain.store.latest().header.stateRoot)
  expect(new SnapshotReads(chain.snapshot!, old).account(keccak256(driver.addresses[0]!))).toBeUndefined()
  // and the chain's own reader still answers the old root (from the trie)
  const reader = chain.readerAt(old)
  expect((await reader.getAccount(new Address(driver.contract)))?.nonce).toBe(1n)
})

test('each flashblock of a block reads right, its layer made from the one before, and so does the sealed root the base moves to from the newest layer', async () => {
  const chain = await chains.open(HAND_SEALED)
  await ready(chain)
  const driver = new Driver(chain)
  await driver.deploy()
  await ageChain(driver, 1)
  const roots: Uint8Array[] = []
  let written: Uint8Array | undefined
  for (let flashblock = 0; flashblock < 5; flashblock++) {
    if (written) await driver.store(written, 0n)
    written = randomBytes(32)
    await driver.store(written, BigInt(flashblock + 1))
    await driver.store(word(0n), BigInt(flashblock + 100))
    await driver.transfer()
    const fb = await chain.buildNow()
    roots.push(fb.diff.stateRoot)
    await driver.compare(fb.diff.stateRoot)
  }
  // the earlier layers are as they were
  for (const root of roots) await driver.compare(root)
  // the base moves to the sealed root from the newest layer: one whose root is the block's, then one whose is not
  await chain.sealNow()
  await driver.compare(chain.store.latest().header.stateRoot)
  await driver.store(word(0n), 0n)
  await driver.transfer()
  await driver.compare((await chain.buildNow()).diff.stateRoot)
  if (written) await driver.store(written, 0n)
  await driver.store(word(1n), 5n)
  await chain.sealNow()
  await driver.compare(chain.store.latest().header.stateRoot)
})

test('a sealed root that is no read flashblock’s is reached from the newest layer by what differs from its root', async () => {
  const chain = await chains.open(HAND_SEALED)
  await ready(chain)
  const driver = new Driver(chain)
  await driver.deploy()
  await ageChain(driver, 1)
  const base = chain.store.latest().header.stateRoot
  await driver.store(word(0n), 41n)
  await driver.transfer()
  const flashblock = (await chain.buildNow()).diff.stateRoot
  await driver.store(word(0n), 0n)
  await driver.store(word(1n), 42n)
  await driver.transfer()
  await chain.buildNow()
  const sealed = (await chain.sealNow()).header.stateRoot
  expect(bytesToHex(sealed)).not.toBe(bytesToHex(flashblock))
  // a snapshot of its own, told of the first flashblock only: the chain's own saw (and read) the last one too
  // the chain's own trie reader: the nodes the chain's snapshot reads
  const { trie } = Reflect.get(chain, 'stateCache') as StateCache
  const snapshot = new StateSnapshot((hash) => trie.nodeNow(hash))
  snapshot.make(base)
  await until(() => snapshot.ready, 'the snapshot of the base is made')
  snapshot.flashblock(flashblock)
  await driver.compare(flashblock, snapshot)
  snapshot.sealed(sealed)
  await driver.compare(sealed, snapshot)
  snapshot.close()
})

test('an empty flashblock repeating the root before it changes nothing readers see', async () => {
  const chain = await chains.open(HAND_SEALED)
  await ready(chain)
  const driver = new Driver(chain)
  await driver.deploy()
  await driver.transfer()
  const fb = await chain.buildNow()
  const epoch = chain.snapshot!.epoch
  const empty = await chain.buildNow()
  expect(bytesToHex(empty.diff.stateRoot)).toBe(bytesToHex(fb.diff.stateRoot))
  expect(chain.snapshot!.epoch).toBe(epoch)
  await driver.compare(empty.diff.stateRoot)
  // a root that moved is a new layer
  await driver.transfer()
  const moved = await chain.buildNow()
  expect(chain.snapshot!.epoch).toBeGreaterThan(epoch)
  await driver.compare(moved.diff.stateRoot)
})

test('after a --data-dir restart the snapshot is made from the stored state and matches the trie', async () => {
  const dataDir = chains.dataDir()
  let chain = await chains.open({ ...HAND_SEALED, dataDir })
  await ready(chain)
  const driver = new Driver(chain)
  await driver.deploy()
  await ageChain(driver, 3)
  chain = await chains.reopen({ ...HAND_SEALED, dataDir })
  const again = new Driver(chain)
  Object.assign(again, { addresses: driver.addresses, slots: driver.slots, contract: driver.contract, nonce: 0 })
  await ready(chain)
  await again.compare(chain.store.latest().header.stateRoot)
})

test('the snapshot is made in a process with nothing else to do, without anything waking its event loop', async () => {
  // the script prints when its event loop runs dry: parts scheduled so that only another event runs them leave
  // it unmade there (an idle service made its snapshot a part per flashblock timer, ~50 s)
  const { code, output } = await runScript('test/support/snapshot-idle-loop.ts', [])
  expect(code).toBe(0)
  expect(output.trim()).toBe('snapshot made: true')
})
