import { type Hex, encodeFunctionData } from 'viem'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { BOB } from '../support/dev-keys.js'
import { testToken } from '../support/fixtures.js'
import { type Harness, startHarness } from '../support/harness.js'

/**
 * The same eth_call asked again, as dApps poll views: a block's answers are kept (call-memo.ts), so these
 * check that a kept answer is only ever the answer of its own block, on both endpoints.
 */
let h: Harness
let token: Hex
const balanceOfBob = () => encodeFunctionData({ abi: testToken.abi, functionName: 'balanceOf', args: [BOB] })
const ask = (endpoint: 'general' | 'flashblocks', block: string) =>
  h.rpc(endpoint, 'eth_call', [{ to: token, data: balanceOfBob() }, block]).then((r) => BigInt(r.result as Hex))

beforeAll(async () => {
  h = await startHarness()
  token = (await h.deployToken(10n ** 24n)).address
})
afterAll(() => h?.close())

test('a view asked again after a block answers with the new state, and at the old block with the old one', async () => {
  expect(await ask('general', 'latest')).toBe(0n)
  const before = await h.general.getBlockNumber()
  await h.transferToken(token, BOB, 7n)
  await h.mine()
  expect(await ask('general', 'latest')).toBe(7n)
  expect(await ask('general', `0x${before.toString(16)}`)).toBe(0n)
  expect(await ask('general', 'latest')).toBe(7n)
})

test('a view on pending at /flashblocks follows each flashblock', async () => {
  const start = await ask('flashblocks', 'pending')
  await h.transferToken(token, BOB, 1n)
  await h.chain.buildNow()
  expect(await ask('flashblocks', 'pending')).toBe(start + 1n)
  await h.transferToken(token, BOB, 2n)
  await h.chain.buildNow()
  expect(await ask('flashblocks', 'pending')).toBe(start + 3n)
  await h.chain.sealNow()
})

test('a call that writes storage answers the same each time it is asked on one block', async () => {
  const increment = encodeFunctionData({ abi: testToken.abi, functionName: 'increment' })
  const answers = await Promise.all(
    [1, 2, 3].map(() => h.rpc('general', 'eth_call', [{ to: token, data: increment }, 'latest'])),
  )
  expect(new Set(answers.map((r) => r.result)).size).toBe(1)
  expect(answers[0]!.result).toMatch(/^0x[0-9a-f]{64}$/)
})

test('a reverting call answers code 3 with its revert data again when repeated', async () => {
  const failing = encodeFunctionData({ abi: testToken.abi, functionName: 'onlyZero' })
  const from = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
  for (let i = 0; i < 2; i++) {
    const { error } = await h.rpc('general', 'eth_call', [{ from, to: token, data: failing }, 'latest'])
    expect(error).toMatchObject({ code: 3, data: expect.stringMatching(/^0x[0-9a-f]{8}/) })
  }
})
