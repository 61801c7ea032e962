/**
 * User deposits against a real OP-aware node: `anvil --network optimism` takes the same RLP-encoded 0x7e
 * transactions through eth_sendRawTransaction. One deposit mints and transfers, one creates a contract whose
 * init code reverts (the mint and the nonce bump stay): receipts, balances and nonces must agree. (anvil
 * computes no L1 fee; the fee formulas are checked against the specs' examples in src/opstack.)
 */
import { afterAll, beforeAll, expect, test } from 'vitest'
import { type Hex, keccak256 } from 'viem'
import { serializeTransaction } from 'viem/op-stack'
import type { RunningService } from '../../src/service.js'
import type { Chain } from '../../src/chain/chain.js'
import { type RunningAnvil, startAnvil } from '../support/anvil.js'
import { rpc } from '../support/rpc.js'
import { until } from '../support/wait-for.js'
import { startFrozenService } from '../support/harness.js'

let anvil: RunningAnvil
let service: RunningService

beforeAll(async () => {
  anvil = await startAnvil(['--network', 'optimism', '--hardfork', 'jovian'])
  service = await startFrozenService()
})
afterAll(async () => {
  anvil?.close()
  await service?.close()
})

const ALICE = '0x00000000000000000000000000000000000a11ce' as const
const CAROL = '0x00000000000000000000000000000000000ca201' as const
const RECIPIENT = '0x000000000000000000000000000000000000beef' as const

const deposits: Hex[] = [
  serializeTransaction({
    type: 'deposit',
    sourceHash: keccak256('0x01'),
    from: ALICE,
    to: RECIPIENT,
    mint: 3n * 10n ** 18n,
    value: 10n ** 18n,
    gas: 100_000n,
    data: '0x',
  }),
  // a creation whose init code is PUSH1 0 PUSH1 0 REVERT
  serializeTransaction({
    type: 'deposit',
    sourceHash: keccak256('0x02'),
    // another sender: anvil's pool orders deposits by the sender's nonce as if they had one
    from: CAROL,
    mint: 10n ** 18n,
    value: 5n,
    gas: 200_000n,
    data: '0x60006000fd',
  }),
]

async function call<T>(url: string, method: string, params: unknown[]): Promise<T> {
  const reply = await rpc(url, method, params)
  if (reply.error) throw new Error(`${method}: ${reply.error.message}`)
  return reply.result as T
}

/** anvil mines a sent transaction in the background: wait for its receipt. */
async function receiptOf(url: string, hash: Hex): Promise<Record<string, unknown>> {
  let receipt: Record<string, unknown> | null = null
  await until(
    async () => (receipt = await call(url, 'eth_getTransactionReceipt', [hash])) !== null,
    `the receipt of ${hash} at ${url}`,
  )
  return receipt!
}

async function outcome(url: string, receipts: Record<string, unknown>[]) {
  return {
    receipts: receipts.map((r) => ({
      status: r.status,
      gasUsed: r.gasUsed,
      type: String(r.type).toLowerCase(), // anvil writes 0x7E
      depositNonce: r.depositNonce,
      depositReceiptVersion: r.depositReceiptVersion,
      contractAddress: r.contractAddress,
      logs: r.logs,
    })),
    alice: await call(url, 'eth_getBalance', [ALICE, 'latest']),
    aliceNonce: await call(url, 'eth_getTransactionCount', [ALICE, 'latest']),
    carol: await call(url, 'eth_getBalance', [CAROL, 'latest']),
    carolNonce: await call(url, 'eth_getTransactionCount', [CAROL, 'latest']),
    recipient: await call(url, 'eth_getBalance', [RECIPIENT, 'latest']),
  }
}

test('a succeeding and a reverting user deposit give anvil --network optimism the same receipts, balances and nonces', async () => {
  const theirs: Hex[] = []
  const anvilReceipts: Record<string, unknown>[] = []
  for (const raw of deposits) {
    // one at a time: anvil mines each as it arrives
    const hash = await call<Hex>(anvil.url, 'eth_sendRawTransaction', [raw])
    anvilReceipts.push(await receiptOf(anvil.url, hash))
    theirs.push(hash)
  }
  const mine: Hex[] = []
  for (const raw of deposits) mine.push(await call(service.url, 'eth_sendRawTransaction', [raw]))
  expect(mine).toEqual(theirs)
  // deposits open the next block: seal the one the sequencer opened at start, then build the next
  await (service.chain as Chain).sealNow()
  const block = await (service.chain as Chain).mine()
  expect(block.txs.map((t) => t.tx.type)).toEqual([0x7e, 0x7e, 0x7e])
  const ours: Record<string, unknown>[] = []
  for (const hash of mine) ours.push(await receiptOf(service.url, hash))
  const [a, b] = [await outcome(anvil.url, anvilReceipts), await outcome(service.url, ours)]
  expect(b.receipts.map((r) => r.status)).toEqual(['0x1', '0x0'])
  // op-geth's depositNonce is the sender's nonce before the deposit (specs: deposit receipt); anvil 1.7.1
  // reports the nonce after it, so that one field is compared shifted by the bump
  expect(b.receipts.map((r) => r.depositNonce)).toEqual(['0x0', '0x0'])
  expect(a.receipts.map((r) => r.depositNonce)).toEqual(['0x1', '0x1'])
  const withoutNonce = (o: typeof a) => ({ ...o, receipts: o.receipts.map(({ depositNonce, ...r }) => r) })
  expect(withoutNonce(b)).toEqual(withoutNonce(a))
}, 60_000)
