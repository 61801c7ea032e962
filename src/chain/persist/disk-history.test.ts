import { bytesToHex, equalsBytes } from '@ethereumjs/util'
import { beforeEach, expect, test } from 'vitest'
import { scratchChains } from '../../../test/support/scratch-chain.js'
import { signTx } from '../../../test/support/sign-tx.js'
import type { BlockRecord, TxRecord } from '../../domain/types.js'
import type { Chain } from '../chain.js'
import { DISK_RECENT_BLOCKS_CACHED } from '../../limits.js'
import { sendersKey } from './keys.js'

const chains = scratchChains('preconf-positions-')
let dataDir: string
beforeEach(() => {
  dataDir = chains.dataDir()
})

const openChain = (options: { history?: number } = {}) => chains.open({ dataDir, ...options })

/** Stops the chain and opens its directory again, as a restart does. */
const restart = (options: { history?: number } = {}) => chains.reopen({ dataDir, ...options })

/** What runTx asks a transaction for its sender (a deposit names its own). */
const askedSender = ({ tx, sender }: TxRecord) => ('getSenderAddress' in tx ? tx.getSenderAddress().bytes : sender)

/** The sender each of `block`'s transactions answers (hex), as a record and as runTx asks it. */
function senders(block: BlockRecord | undefined) {
  expect(block).toBeDefined()
  return block!.txs.map((t) => {
    expect(bytesToHex(askedSender(t))).toBe(bytesToHex(t.sender))
    return bytesToHex(t.sender)
  })
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
  c = await restart()
  expect(c.store.height).toBe(block.number)
  expect(found(c, hash)).toEqual(placeIn(block, hash))
})

test('a block read from disk after a restart has its senders, stored beside it or recovered in a directory written before they were', async () => {
  let c = await openChain()
  const signers = [0, 1].map((i) => bytesToHex(c.accounts[i]!.address))
  const sendFrom = async (nonce: number) => {
    for (const from of [0, 1]) await c.sendRawTransaction(await signTx(c, from, { nonce, value: 1n }))
  }
  await sendFrom(0)
  const stored = await c.mine()
  await sendFrom(1)
  const old = await c.mine()
  await c.mine() // the head: both blocks above are read by number, not as the head
  const db = c.persistence!.db
  expect(db.getSync(sendersKey(stored.number))?.length).toBe(20 * stored.txs.length)
  // a block as a directory written before senders were stored holds it: no senders key
  await db.del(sendersKey(old.number))
  const expected = [senders(stored), senders(old)]
  // the signers of the transactions, as viem signed them (after the L1-attributes deposit)
  for (const sent of expected) expect(sent.slice(1)).toEqual(signers)

  c = await restart()
  expect([senders(c.store.byNumber(stored.number)), senders(c.store.byNumber(old.number))]).toEqual(expected)
  expect(c.store.byNumber(old.number)?.hash).toEqual(old.hash)
})

test("an impersonated transaction's sender, which no signature gives, reads back from disk", async () => {
  let c = await openChain()
  const from = c.accounts[3]!.address
  c.devNode.impersonate(from)
  const fee = { maxFeePerGas: 10n ** 10n, maxPriorityFeePerGas: 10n ** 9n }
  const send = (nonce: bigint) =>
    c.devNode.sendImpersonated({
      type: 2,
      nonce,
      gas: 21_000n,
      chainId: c.chainId,
      from,
      to: c.accounts[4]!.address,
      ...fee,
    })
  const stored = await send(0n)
  await c.mine()
  const old = await send(1n)
  const oldBlock = await c.mine()
  await c.persistence!.db.del(sendersKey(oldBlock.number)) // written as before senders were stored
  await c.mine()
  c = await restart()
  for (const hash of [stored, old]) {
    const read = c.store.tx(hash)
    expect(bytesToHex(read!.tx.sender)).toBe(bytesToHex(from))
    expect(bytesToHex(askedSender(read!.tx))).toBe(bytesToHex(from))
  }
})

test('a --history prune pass leaves every block with its senders', async () => {
  let c = await openChain({ history: 2 })
  await c.sendRawTransaction(await signTx(c, 0, { nonce: 0, value: 1n }))
  const block = await c.mine()
  const expected = senders(block)
  for (let i = 0; i < 6; i++) await c.mine()
  await c.options.pruner!.idle()
  expect(c.options.pruner!.removals).toBeGreaterThan(0) // a pass swept
  expect(c.persistence!.db.getSync(sendersKey(block.number))?.length).toBe(20 * block.txs.length)
  c = await restart({ history: 2 })
  expect(senders(c.store.byNumber(block.number))).toEqual(expected)
})
