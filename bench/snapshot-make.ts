/**
 * The state snapshot (src/evm/state-snapshot.ts) on a large state, in process: an account trie of `--accounts`
 * accounts (default 180 000: the aging hour's) in memory, then
 * - the time and CPU to make the snapshot from it (what a --data-dir restart does, less LevelDB's ~6 µs a node),
 * - the live heap and the tables' bytes it holds,
 * - a block's move (`--changed` accounts changed, as many new) and the cost of a pending layer,
 * - a read of an address nobody read before: through the snapshot and through the trie walk, µs per read.
 *
 *   npx tsx --expose-gc bench/snapshot-make.ts [--accounts 180000] [--changed 50] [--reads 20000] [--blocks 3]
 */
import { loadavg } from 'node:os'
import { parseArgs } from 'node:util'
import { MerklePatriciaTrie } from '@ethereumjs/mpt'
import { createAccount, MapDB, randomBytes, ValueEncoding } from '@ethereumjs/util'
import { keccak256 } from '../src/evm/crypto.js'
import { SnapshotReads, StateSnapshot } from '../src/evm/state-snapshot.js'
import { TrieReader } from '../src/evm/trie-reader.js'

const { values } = parseArgs({
  options: {
    accounts: { type: 'string', default: '180000' },
    changed: { type: 'string', default: '50' },
    reads: { type: 'string', default: '20000' },
    blocks: { type: 'string', default: '3' },
  },
})
const accounts = Number(values.accounts)
const changed = Number(values.changed)
const reads = Number(values.reads)
const blocks = Number(values.blocks)
const gc = (globalThis as { gc?: () => void }).gc
const heapMB = () => {
  gc?.()
  const { heapUsed, arrayBuffers } = process.memoryUsage()
  return { heap: heapUsed / 2 ** 20, buffers: arrayBuffers / 2 ** 20 }
}
const load = () => loadavg()[0]!.toFixed(1)

const nodes = new Map<string, Uint8Array>()
const db = new MapDB<string, Uint8Array>(nodes)
const trie = new MerklePatriciaTrie({
  useKeyHashing: true,
  useKeyHashingFunction: keccak256,
  db,
  valueEncoding: ValueEncoding.Bytes,
})
const addresses: Uint8Array[] = []
for (let i = 0; i < accounts; i++) {
  const address = randomBytes(20)
  addresses.push(address)
  await trie.put(address, createAccount({ nonce: 0n, balance: BigInt(1000 + i) }).serialize())
}
console.log(`account trie of ${accounts} accounts built (${nodes.size} nodes), load ${load()}`)

const reader = new TrieReader(db as never)
const before = heapMB()
const snapshot = new StateSnapshot((hash) => reader.nodeNow(hash))
let cpu = process.cpuUsage()
let start = performance.now()
snapshot.make(trie.root())
while (!snapshot.ready) await new Promise((r) => setImmediate(r))
let used = process.cpuUsage(cpu)
const after = heapMB()
console.log(
  `made in ${(performance.now() - start).toFixed(0)} ms wall, ${((used.user + used.system) / 1000).toFixed(0)} ms CPU ` +
    `(in 256 parts); heap +${(after.heap - before.heap).toFixed(1)} MB, ` +
    `array buffers +${(after.buffers - before.buffers).toFixed(1)} MB; load ${load()}`,
)

// blocks: `changed` balances move, as many accounts are new (the first move may grow the tables' arenas)
const oldRoot = trie.root()
let newRoot = oldRoot
for (let block = 1; block <= blocks; block++) {
  for (let i = 0; i < changed; i++) {
    await trie.put(addresses[block * changed + i]!, createAccount({ nonce: 1n, balance: 7n }).serialize())
    const fresh = randomBytes(20)
    addresses.push(fresh)
    await trie.put(fresh, createAccount({ nonce: 0n, balance: 1n }).serialize())
  }
  newRoot = trie.root()
  start = performance.now()
  cpu = process.cpuUsage()
  snapshot.sealed(newRoot)
  new SnapshotReads(snapshot, newRoot).account(keccak256(addresses[0]!))
  used = process.cpuUsage(cpu)
  const ms = (performance.now() - start).toFixed(2)
  const cpuMs = ((used.user + used.system) / 1000).toFixed(2)
  console.log(
    `block ${block}: ${changed} changed and ${changed} new accounts, the base moved in ${ms} ms (${cpuMs} ms CPU); load ${load()}`,
  )
}
// a flashblock of one block's change over the newest sealed root (as the block being built makes them)
for (let i = 0; i < changed; i++) {
  await trie.put(addresses[i]!, createAccount({ nonce: 2n, balance: 9n }).serialize())
  await trie.put(randomBytes(20), createAccount({ nonce: 0n, balance: 2n }).serialize())
}
const pendingRoot = trie.root()
start = performance.now()
snapshot.flashblock(pendingRoot)
new SnapshotReads(snapshot, pendingRoot).account(keccak256(addresses[0]!))
console.log(`a flashblock's layer (${changed} changed, ${changed} new): ${(performance.now() - start).toFixed(2)} ms`)

snapshot.sealed(oldRoot)
new SnapshotReads(snapshot, oldRoot).account(keccak256(addresses[0]!))
start = performance.now()
snapshot.flashblock(newRoot)
new SnapshotReads(snapshot, newRoot).account(keccak256(addresses[0]!))
console.log(
  `the ${blocks} blocks' change as a pending layer over the old root: ${(performance.now() - start).toFixed(2)} ms`,
)

// reads of addresses nobody read: half present, half absent, through the snapshot and through the trie walk
const probe = Array.from({ length: reads }, (_, i) => (i % 2 ? randomBytes(20) : addresses[(i * 7919) % accounts]!))
const flat = new SnapshotReads(snapshot, oldRoot)
const walked = heapMB()
for (let round = 0; round < 2; round++) {
  cpu = process.cpuUsage()
  for (const address of probe) flat.account(keccak256(address))
  used = process.cpuUsage(cpu)
  const flatUs = (used.user + used.system) / reads
  cpu = process.cpuUsage()
  for (const address of probe) reader.get(oldRoot, address)
  used = process.cpuUsage(cpu)
  const trieUs = (used.user + used.system) / reads
  console.log(
    `round ${round + 1}: a new address's account, µs CPU: snapshot ${flatUs.toFixed(2)}, trie walk ${trieUs.toFixed(2)}; load ${load()}`,
  )
}
const full = heapMB()
console.log(
  `the trie walk's decoded-node cache, filled by those reads: heap +${(full.heap - walked.heap).toFixed(1)} MB, ` +
    `array buffers +${(full.buffers - walked.buffers).toFixed(1)} MB`,
)
