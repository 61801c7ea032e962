/**
 * viem's OP Stack actions (publicActionsL2) against the service: they call the GasPriceOracle and L1Block
 * predeploys the genesis installs, and their answers equal src/opstack's formulas.
 */
import { afterAll, beforeAll, expect, test } from 'vitest'
import { createPublicClient, http, parseGwei, serializeTransaction, hexToBytes } from 'viem'
import { publicActionsL2 } from 'viem/op-stack'
import { privateKeyToAccount } from 'viem/accounts'
import type { RunningService } from '../../src/service.js'
import { DEFAULT_L1_SETTINGS } from '../../src/opstack/l1-origin.js'
import { oracleL1Fee } from '../../src/opstack/l1-fee.js'
import { DEV_KEY_0, BOB } from '../support/dev-keys.js'
import { opStackChain, startFrozenService } from '../support/harness.js'

let service: RunningService

beforeAll(async () => {
  service = await startFrozenService()
})
afterAll(async () => service?.close())

test("viem's getL1BaseFee reads the simulated L1 base fee from the GasPriceOracle", async () => {
  const client = createPublicClient({ chain: opStackChain, transport: http(service.url) }).extend(publicActionsL2())
  expect(await client.getL1BaseFee()).toBe(DEFAULT_L1_SETTINGS.l1BaseFee)
})

test("viem's estimateL1Fee for a transfer equals the Fjord formula of the same unsigned bytes", async () => {
  const client = createPublicClient({ chain: opStackChain, transport: http(service.url) }).extend(publicActionsL2())
  const account = privateKeyToAccount(DEV_KEY_0)
  const transfer = {
    to: BOB,
    value: 1n,
    nonce: 0,
    gas: 21_000n,
    maxFeePerGas: parseGwei('10'),
    maxPriorityFeePerGas: parseGwei('1'),
    chainId: 196,
    type: 'eip1559' as const,
  }
  const fee = await client.estimateL1Fee({ account, ...transfer })
  const unsigned = serializeTransaction(transfer)
  expect(fee).toBe(oracleL1Fee(hexToBytes(unsigned), DEFAULT_L1_SETTINGS))
  expect(fee).toBeGreaterThan(0n)
})

test("viem's estimateOperatorFee answers 0 with the default (operator fee off) settings", async () => {
  const client = createPublicClient({ chain: opStackChain, transport: http(service.url) }).extend(publicActionsL2())
  expect(await client.estimateOperatorFee({ account: privateKeyToAccount(DEV_KEY_0), to: BOB, value: 1n })).toBe(0n)
})
