/**
 * The in-memory history's transaction index (store.ts): every transaction found by its hash, in decoded and in
 * packed blocks, none found by a hash it does not hold (the index is keyed by 31 bits of the hash), two sharing
 * those bits both found, and a rewind forgets what it takes away.
 */
import { randomBytes } from '@ethereumjs/util'
import { afterEach, expect, test } from 'vitest'
import { signTx } from '../../test/support/sign-tx.js'
import { defaultConfig } from '../config.js'
import type { BlockRecord } from '../domain/types.js'
import { MEMORY_RECENT_BLOCKS } from '../limits.js'
import type { Chain } from './chain.js'
import { createChain } from './create-chain.js'
import { CanonicalStore } from './store.js'

let chain: Chain | undefined
afterEach(async () => {
  await chain?.stop()
  chain = undefined
})

const other = (hash: Uint8Array, at: number) => hash.map((byte, i) => (i === at ? byte ^ 1 : byte))

test('every transaction is found by its hash, packed blocks too, and no hash it does not hold is', async () => {
  chain = await createChain(defaultConfig({ quiet: true, blockTimeMs: 3_600_000 }))
  const c = chain
  const mined: Uint8Array[] = []
  for (let n = 0; n < MEMORY_RECENT_BLOCKS + 6; n++) {
    await c.sendRawTransaction(await signTx(c, 0, { nonce: n, to: randomBytes(20), value: 1n }))
    mined.push(...(await c.sealNow()).txs.map((t) => t.hash))
  }
  for (const hash of mined) expect(c.store.tx(hash)?.tx.hash).toEqual(hash)
  // a hash differing in its last byte, or in one of the first four the index is keyed by
  for (const hash of mined.slice(0, 20)) {
    expect(c.store.tx(other(hash, 31))).toBeUndefined()
    expect(c.store.tx(other(hash, 2))).toBeUndefined()
  }
  const last = c.store.latest()
  c.store.truncate(c.store.height - 3n)
  expect(c.store.tx(last.txs[1]!.hash)).toBeUndefined()
  expect(c.store.tx(mined[0]!)?.block.number).toBe(1n)
})

test('two transactions whose hashes share the index key are both found, and each forgotten with its block', async () => {
  chain = await createChain(defaultConfig({ quiet: true, blockTimeMs: 3_600_000 }))
  const c = chain
  await c.sendRawTransaction(await signTx(c, 0, { nonce: 0, to: randomBytes(20), value: 1n }))
  const block = await c.sealNow()
  // the same block again at heights 1..3, its transactions under made-up hashes: the first four bytes shared
  const shared = randomBytes(4)
  const hash = (n: number, i: number) => Uint8Array.from([...shared, n, i, ...randomBytes(26)])
  const store = new CanonicalStore(c.store.genesis())
  const hashes: Uint8Array[][] = []
  for (let n = 1; n <= 3; n++) {
    hashes.push(block.txs.map((_, i) => hash(n, i)))
    const copy: BlockRecord = {
      ...block,
      number: BigInt(n),
      hash: randomBytes(32),
      txs: block.txs.map((t, i) => ({ ...t, hash: hashes[n - 1]![i]! })),
    }
    store.add(copy)
  }
  const where = (h: Uint8Array) => {
    const found = store.tx(h)
    return found && [found.block.number, found.index]
  }
  for (let n = 1; n <= 3; n++)
    for (let i = 0; i < block.txs.length; i++) expect(where(hashes[n - 1]![i]!)).toEqual([BigInt(n), i])
  store.truncate(1n)
  expect(where(hashes[0]![1]!)).toEqual([1n, 1])
  for (const h of [...hashes[1]!, ...hashes[2]!]) expect(where(h)).toBeUndefined()
})
