import { Address, hexToBytes, setLengthLeft } from '@ethereumjs/util'
import { encodeDeployData, encodeFunctionData, getContractAddress, type Hex } from 'viem'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { signTx } from '../../test/support/sign-tx.js'
import { testToken } from '../../test/support/fixtures.js'
import { defaultConfig } from '../config.js'
import type { Chain } from '../chain/chain.js'
import { createChain } from '../chain/create-chain.js'
import { BoundedMap } from './bounded-map.js'
import { keccak256 } from './crypto.js'
import { until } from '../../test/support/wait-for.js'

let chain: Chain
let token: Address
let nonce = 0
/** Storage slot `n` as a 32-byte key. */
const slotOf = (n: number) => setLengthLeft(Uint8Array.of(n), 32)
/** TestToken's `counter`: slot 1 (the constants take none, totalSupply is slot 0). */
const slotOfCounter = slotOf(1)

beforeAll(async () => {
  chain = await createChain(defaultConfig({ quiet: true }))
  const data = hexToBytes(encodeDeployData({ abi: testToken.abi, bytecode: testToken.bytecode, args: [1000n] }))
  await chain.sendRawTransaction(await signTx(chain, 0, { to: null, nonce: nonce++, gas: 3_000_000n, data }))
  await chain.mine()
  const from = `0x${Buffer.from(chain.accounts[0].address).toString('hex')}` as Hex
  token = new Address(hexToBytes(getContractAddress({ from, nonce: 0n })))
})

afterAll(() => chain.stop())

async function increment() {
  const data = hexToBytes(encodeFunctionData({ abi: testToken.abi, functionName: 'increment' }))
  await chain.sendRawTransaction(await signTx(chain, 0, { to: token.bytes, nonce: nonce++, gas: 100_000n, data }))
  return chain.mine()
}

test('a slot a block wrote reads its new value at the new root and its old value at the old one', async () => {
  const before = chain.store.latest().header.stateRoot
  expect(await chain.readerAt(before).getStorage(token, slotOfCounter)).toEqual(new Uint8Array(0))
  const block = await increment()
  expect(await chain.readerAt(block.header.stateRoot).getStorage(token, slotOfCounter)).toEqual(Uint8Array.of(1))
  expect(await chain.readerAt(before).getStorage(token, slotOfCounter)).toEqual(new Uint8Array(0))
  const again = await increment()
  expect(await chain.readerAt(again.header.stateRoot).getStorage(token, slotOfCounter)).toEqual(Uint8Array.of(2))
})

test('two slots the cache files under one number (they differ only in middle bytes) each read their own value', async () => {
  const reader = chain.readerAt(chain.store.latest().header.stateRoot)
  const totalSupply = new Uint8Array(32)
  const unset = new Uint8Array(32)
  unset[10] = 1
  expect(await reader.getStorage(token, unset)).toEqual(new Uint8Array(0))
  expect(await reader.getStorage(token, totalSupply)).toEqual(Uint8Array.of(0x03, 0xe8))
  expect(await reader.getStorage(token, unset)).toEqual(new Uint8Array(0))
  expect(await reader.getStorage(token, totalSupply)).toEqual(Uint8Array.of(0x03, 0xe8))
})

test('code read at one root is the same array at the next: the analysis and the bytes carry over', async () => {
  const first = await chain.readerAt(chain.store.latest().header.stateRoot).getCode(token)
  const block = await chain.mine() // an empty block: a new root, the token untouched
  const next = await chain.readerAt(block.header.stateRoot).getCode(token)
  expect(next.length).toBeGreaterThan(0)
  expect(next).toBe(first)
})

test('the readers agree with a fresh trie walk for every account and slot read', async () => {
  const root = chain.store.latest().header.stateRoot
  const reader = chain.readerAt(root)
  const fresh = chain.stateAt(root)
  for (const account of chain.accounts.map((a) => new Address(a.address)).concat(token)) {
    expect((await reader.getAccount(account))?.balance).toBe((await fresh.getAccount(account))?.balance)
    expect(await reader.getCode(account)).toEqual(await fresh.getCode(account))
  }
  for (let slot = 0; slot < 5; slot++) {
    const key = new Uint8Array(32)
    key[31] = slot
    expect(await reader.getStorage(token, key)).toEqual(await fresh.getStorage(token, key))
  }
})

test('reads through the state snapshot that alternate between addresses each look up their own address', async () => {
  await until(() => chain.snapshot?.ready === true, 'the state snapshot is made')
  const root = chain.store.latest().header.stateRoot
  const reader = chain.readerAt(root)
  const fresh = chain.stateAt(root)
  // the token's slots (looked up by its hashed address) between accounts nobody has (each a hash of its own)
  for (let slot = 0; slot < 4; slot++) {
    expect(await reader.getStorage(token, slotOf(slot))).toEqual(await fresh.getStorage(token, slotOf(slot)))
    const nobody = new Address(Uint8Array.from({ length: 20 }, (_, i) => 0x30 + slot + i))
    expect(await reader.getAccount(nobody)).toBeUndefined()
  }
  const holder = new Address(chain.accounts[0].address)
  expect((await reader.getAccount(holder))?.balance).toBe((await fresh.getAccount(holder))?.balance)
})

test('a root remembers an account from its second read on, not a one-off, and one read at an earlier root from its first', async () => {
  // an address nobody read before, given a balance so that its reads are account objects one can tell apart
  const fresh = new Address(Uint8Array.from({ length: 20 }, (_, i) => 0xa0 + i))
  await chain.sendRawTransaction(await signTx(chain, 0, { to: fresh.bytes, value: 5n, nonce: nonce++ }))
  const funded = await chain.mine()
  const reader = chain.readerAt(funded.header.stateRoot)
  const once = await reader.getAccount(fresh)
  const twice = await reader.getAccount(fresh)
  expect(once?.balance).toBe(5n)
  expect(twice).not.toBe(once) // the first read was not kept: the second read it again
  expect(await reader.getAccount(fresh)).toBe(twice)
  const next = chain.readerAt((await chain.mine()).header.stateRoot)
  const first = await next.getAccount(fresh)
  expect(first?.balance).toBe(5n)
  expect(await next.getAccount(fresh)).toBe(first)
})

test('a slot read from the trie is cached from its second read on, not a one-off, and after a write from its first', async () => {
  /** A reader at the root of a block that counted, which the state snapshot no longer answers for (the trie does). */
  const counted = async () => {
    const block = await increment()
    await chain.mine()
    await chain.mine()
    return chain.readerAt(block.header.stateRoot)
  }
  const reader = await counted()
  // the deployer's balanceOf entry (mapping at slot 2), which nothing read before
  const balanceSlot = keccak256(Uint8Array.from([...setLengthLeft(chain.accounts[0].address, 32), ...slotOf(2)]))
  const once = await reader.getStorage(token, balanceSlot)
  const twice = await reader.getStorage(token, balanceSlot)
  expect(twice).toEqual(Uint8Array.of(0x03, 0xe8))
  expect(twice).not.toBe(once) // the first read was not kept: the second read the trie again
  expect(await reader.getStorage(token, balanceSlot)).toBe(twice)
  await reader.getStorage(token, slotOfCounter)
  await reader.getStorage(token, slotOfCounter)
  // the counter written again: a new storage root, so another entry, of a slot read before
  const next = await counted()
  const first = await next.getStorage(token, slotOfCounter)
  expect(await next.getStorage(token, slotOfCounter)).toBe(first)
})

test('a bounded map drops its oldest entries past its capacity, by count or by weight', () => {
  const byCount = new BoundedMap<number>(3)
  for (let i = 0; i < 10; i++) byCount.set(`k${i}`, i)
  expect(byCount.size).toBe(3)
  expect(byCount.get('k6')).toBeUndefined()
  expect(byCount.get('k9')).toBe(9)
  const byWeight = new BoundedMap<Uint8Array>(100, (v) => v.length)
  byWeight.set('a', new Uint8Array(60))
  byWeight.set('b', new Uint8Array(30))
  byWeight.set('c', new Uint8Array(30))
  expect(byWeight.get('a')).toBeUndefined()
  expect(byWeight.size).toBe(2)
  byWeight.set('huge', new Uint8Array(500)) // one entry over the capacity is still kept, alone
  expect(byWeight.size).toBe(1)
})

test('a bounded map entry deleted frees its room, and one set again after is kept', () => {
  const map = new BoundedMap<number>(3)
  for (const key of ['a', 'b', 'c']) map.set(key, 1)
  map.delete('b')
  map.set('d', 1) // b's room: nothing older goes
  expect([map.get('a'), map.get('c'), map.get('d')]).toEqual([1, 1, 1])
  map.set('b', 2)
  map.set('e', 1) // over capacity again: the oldest entries go, and b (set again) stays readable until its turn
  expect(map.size).toBe(3)
  expect(map.get('a')).toBeUndefined()
  for (let i = 0; i < 10; i++) map.set(`k${i}`, i)
  expect(map.size).toBe(3)
  expect(map.get('k9')).toBe(9)
})
