import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { equalsBytes } from '@ethereumjs/util'
import { afterEach, expect, test } from 'vitest'
import { signTx } from '../../../test/support/sign-tx.js'
import { defaultConfig } from '../../config.js'
import type { BlockRecord } from '../../domain/types.js'
import type { Chain } from '../chain.js'
import { createChain } from '../create-chain.js'
import { DISK_RECENT_BLOCKS_CACHED } from '../../limits.js'

let chain: Chain | undefined
let dir: string | undefined
afterEach(async () => {
  await chain?.stop()
  if (dir) rmSync(dir, { recursive: true, force: true })
  chain = dir = undefined
})

async function openChain(): Promise<Chain> {
  dir ??= mkdtempSync(join(tmpdir(), 'preconf-positions-'))
  chain = await createChain(defaultConfig({ quiet: true, dataDir: dir }))
  return chain
}

/** Where `hash` is found: block number, index, and that the transaction there is the one asked for. */
function found(c: Chain, hash: Uint8Array) {
  const at = c.store.tx(hash)
  return at && { number: at.block.number, index: at.index, same: equalsBytes(at.tx.hash, hash) }
}

/** Where `hash` is in `block` as it was sealed (after the block's L1-attributes deposit). */
function placeIn(block: BlockRecord, hash: Uint8Array) {
  const index = block.txs.findIndex((t) => equalsBytes(t.hash, hash))
  expect(index).toBeGreaterThan(0)
  return { number: block.number, index, same: true }
}

test('a receipt polled before its transaction is mined is found once it is, and the same on every poll after', async () => {
  const c = await openChain()
  const hash = await c.sendRawTransaction(await signTx(c, 0, { nonce: 0, value: 1n }))
  // a wallet's first polls come before the block: a position not found yet must not be remembered as missing
  expect(c.store.tx(hash)).toBeUndefined()
  const block = await c.mine()
  const polls = [1, 2, 3].map(() => c.store.tx(hash))
  for (const found of polls) {
    expect(found?.block.number).toBe(block.number)
    expect(found?.tx.hash).toEqual(hash)
    expect(found?.receipt.status).toBe(1)
  }
})

test('transactions are found at their place while their block is among the newest and after it has left them', async () => {
  const c = await openChain()
  const first = [
    await c.sendRawTransaction(await signTx(c, 0, { nonce: 0, value: 1n })),
    await c.sendRawTransaction(await signTx(c, 1, { nonce: 0, value: 2n })),
  ]
  const old = await c.mine()
  const expected = first.map((hash) => placeIn(old, hash))
  expect(first.map((hash) => found(c, hash))).toEqual(expected)
  // more blocks than are kept decoded, each with a transaction: the first block's are then read from disk
  const later: { hash: Uint8Array; block: BlockRecord }[] = []
  for (let nonce = 1; nonce <= DISK_RECENT_BLOCKS_CACHED + 2; nonce++) {
    const hash = await c.sendRawTransaction(await signTx(c, 0, { nonce, value: 1n }))
    later.push({ hash, block: await c.mine() })
  }
  expect(first.map((hash) => found(c, hash))).toEqual(expected)
  for (const { hash, block } of later) expect(found(c, hash)).toEqual(placeIn(block, hash))
  // the old block read again joins the newest decoded ones, and is let go again as blocks come
  expect(c.store.byNumber(old.number)?.hash).toEqual(old.hash)
  for (let nonce = 0; nonce <= DISK_RECENT_BLOCKS_CACHED; nonce++) {
    await c.sendRawTransaction(await signTx(c, 2, { nonce, value: 1n }))
    await c.mine()
  }
  expect(first.map((hash) => found(c, hash))).toEqual(expected)
  expect(found(c, later[0]!.hash)).toEqual(placeIn(later[0]!.block, later[0]!.hash))
})

test('after a restart transactions of the blocks before it are found where they were', async () => {
  let c = await openChain()
  const hash = await c.sendRawTransaction(await signTx(c, 0, { nonce: 0, value: 1n }))
  const block = await c.mine()
  await c.stop()
  chain = undefined
  c = await openChain()
  expect(c.store.height).toBe(block.number)
  expect(found(c, hash)).toEqual(placeIn(block, hash))
})
