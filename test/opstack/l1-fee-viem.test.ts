/**
 * With OP fees on, what viem's estimateL1Fee says before sending (asking the GasPriceOracle at the block that
 * will include the transaction) is what the receipt charges: a transfer sits at Fjord's 100-byte minimum,
 * where the unsigned estimate and the signed charge agree (upstream-followers-2026.md, appendix).
 */
import { afterAll, beforeAll, expect, test } from 'vitest'
import { createPublicClient, createWalletClient, http, parseGwei } from 'viem'
import { publicActionsL2 } from 'viem/op-stack'
import { privateKeyToAccount } from 'viem/accounts'
import type { RunningService } from '../../src/service.js'
import type { Chain } from '../../src/chain/chain.js'
import { DEV_KEY_0, BOB } from '../support/dev-keys.js'
import { opStackChain, startFrozenService } from '../support/harness.js'

let service: RunningService

beforeAll(async () => {
  service = await startFrozenService({
    opFees: true,
  })
})
afterAll(async () => service?.close())

test("viem's estimateL1Fee before a transfer equals the l1Fee its receipt shows, and viem parses the OP receipt", async () => {
  const account = privateKeyToAccount(DEV_KEY_0)
  const client = createPublicClient({ chain: opStackChain, transport: http(service.url) }).extend(publicActionsL2())
  const wallet = createWalletClient({ account, chain: opStackChain, transport: http(service.url) })
  const request = {
    to: BOB,
    value: 1n,
    nonce: 0,
    gas: 21_000n,
    maxFeePerGas: parseGwei('10'),
    maxPriorityFeePerGas: parseGwei('1'),
  } as const
  const estimate = await client.estimateL1Fee({ account, ...request })
  const hash = await wallet.sendTransaction(request)
  await (service.chain as Chain).mine()
  const receipt = await client.getTransactionReceipt({ hash })
  expect(receipt.l1Fee).toBe(estimate)
  expect(receipt.l1GasUsed).toBe(1600n)
  expect(receipt.l1GasPrice).toBe(1_000_000_000n)
})
