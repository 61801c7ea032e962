/**
 * Deposits are forced inclusions (OP Stack derivation): one sent with eth_sendRawTransaction that does not fit
 * the gas left in the next block is not lost but opens the block after it, right after that block's L1-info
 * deposit, with every deposit sent after it still behind it. One that no block could hold is refused up front.
 */
import { afterAll, beforeAll, expect, test } from 'vitest'
import { type Hex, createPublicClient, http, keccak256, toHex } from 'viem'
import { serializeTransaction } from 'viem/op-stack'
import type { RunningService } from '../../src/service.js'
import type { Chain } from '../../src/chain/chain.js'
import { BOB } from '../support/dev-keys.js'
import { opStackChain, startFrozenService } from '../support/harness.js'
import { rpc } from '../support/rpc.js'

let service: RunningService
beforeAll(async () => {
  service = await startFrozenService({ gasLimit: 30_000_000n })
})
afterAll(async () => service?.close())

const chain = () => service.chain as Chain
const client = () => createPublicClient({ chain: opStackChain, transport: http(service.url) })

let seq = 0
/** A user deposit; `burn`: a creation whose init code is INVALID, so it uses all of its gas. */
function deposit(gas: bigint, burn = false): Hex {
  seq++
  return serializeTransaction({
    type: 'deposit',
    sourceHash: keccak256(toHex(`carry-over ${seq}`)),
    from: `0x00000000000000000000000000000000000d${seq.toString(16).padStart(4, '0')}`,
    ...(burn ? { data: '0xfe' } : { to: BOB, data: '0x' }),
    mint: 10n ** 18n,
    value: 0n,
    gas,
  })
}

async function send(raw: Hex): Promise<Hex> {
  const reply = await rpc(service.url, 'eth_sendRawTransaction', [raw])
  expect(reply.error).toBeUndefined()
  return reply.result as Hex
}

/** Mines until `hash` has a receipt (a deposit lands in the first block opened after it was sent). */
async function mineUntil(hash: Hex) {
  for (let i = 0; i < 3; i++) {
    await chain().mine()
    const receipt = await client()
      .getTransactionReceipt({ hash })
      .catch(() => undefined)
    if (receipt) return receipt
  }
  throw new Error(`${hash} was not mined`)
}

test('a deposit that does not fit the block waits for the next one, right after its L1-info deposit, in order', async () => {
  const c = client()
  const burner = await send(deposit(15_000_000n, true))
  const tooBig = await send(deposit(15_000_000n)) // 1 M for L1 info + 15 M burnt leave under 15 M
  const behind = await send(deposit(100_000n)) // fits, but must not overtake the one before it

  const burnt = await mineUntil(burner)
  expect(burnt.status).toBe('reverted')
  expect(burnt.gasUsed).toBe(15_000_000n)
  expect(burnt.transactionIndex).toBe(1)
  // the others are still known while they wait
  const waiting = (await rpc(service.url, 'eth_getTransactionByHash', [tooBig])).result
  expect(waiting).toMatchObject({ hash: tooBig, type: '0x7e', blockNumber: null })

  await chain().mine()
  const next = await c.getBlock({ blockNumber: burnt.blockNumber + 1n, includeTransactions: true })
  expect(next.transactions.map((t) => t.type)).toEqual(['deposit', 'deposit', 'deposit'])
  expect(next.transactions[0]!.from).toBe('0xdeaddeaddeaddeaddeaddeaddeaddeaddead0001')
  expect(next.transactions.map((t) => t.hash).slice(1)).toEqual([tooBig, behind])
  for (const hash of [tooBig, behind]) expect((await c.getTransactionReceipt({ hash })).status).toBe('success')
})

test('a deposit asking for more gas than a block holds beside its L1-info deposit is refused with -32000', async () => {
  const reply = await rpc(service.url, 'eth_sendRawTransaction', [deposit(29_000_001n)])
  expect(reply.error).toEqual({ code: -32000, message: 'exceeds block gas limit' })
  // the largest that fits is accepted and mined in the next block
  const hash = await send(deposit(29_000_000n))
  expect((await mineUntil(hash)).status).toBe('success')
})
