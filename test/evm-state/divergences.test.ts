/**
 * The divergences issue 25 lists, where this service's eth_call (the pre-state as a state override) answered
 * out of gas or reverted and anvil's succeeded, settled by the fixtures' expected post-state:
 * - dynamicAccountOverwriteEmpty_Paris: CREATE2 onto an account with storage but no code or nonce collides
 *   (EIP-7610); the collision takes the creation's gas and the transaction runs out of gas. runTx's post-state
 *   is the fixture's: this service is right, anvil (revm checks code and nonce only) is not.
 * - randomStatetest263, randomStatetest498, CreateOOGafterMaxCodesize data 1 and 2: the transactions need more
 *   than 50M gas; eth_call caps gas at RPC_GAS_CAP (geth's --rpc.gascap default), anvil does not. With the
 *   transaction's own gas limit the call succeeds, as the fixture's post-state says the transaction does.
 */
import { describe, expect, test } from 'vitest'
import { call } from '../../src/evm/execution/call.js'
import { execute } from '../../src/evm/execution/run.js'
import { RPC_GAS_CAP } from '../../src/limits.js'
import { callEnv, callRequestOf, overridesOf } from '../support/state-tests/call-path.js'
import { type Case, loadGroup } from '../support/state-tests/fixtures.js'
import { matchesFixture, runTxCase } from '../support/state-tests/run-tx.js'

function theCase(group: string, name: string, data = 0): Case {
  const found = loadGroup(group).find((c) => c.name === name && c.expected.indexes.data === data)
  if (!found) throw new Error(`${group}/${name} data ${data} is not in the fixtures`)
  return found
}

/** The case as eth_call runs it: its request with the transaction's gas, the pre-state as overrides. */
async function ethCall(c: Case): Promise<Uint8Array> {
  const { request, gas } = callRequestOf(c)!
  return call(await callEnv(c, true), { ...request, gas }, overridesOf(c.test.pre))
}

describe('the eth_call divergences from anvil in issue 25', () => {
  test('dynamicAccountOverwriteEmpty_Paris runs out of gas on a CREATE2 collision with storage, as the fixture says', async () => {
    const c = theCase('stExtCodeHash', 'dynamicAccountOverwriteEmpty_Paris')
    expect(matchesFixture(c, await runTxCase(c))).toBeUndefined()
    const { request, gas } = callRequestOf(c)!
    expect(gas).toBeLessThan(RPC_GAS_CAP)
    const run = await execute(await callEnv(c), request, gas)
    expect(run.execResult.exceptionError?.error).toBe('out of gas')
    await expect(ethCall(c)).rejects.toThrow('out of gas')
  })

  test.each([
    ['stRandom', 'randomStatetest263', 0, 'out of gas'],
    ['stRandom2', 'randomStatetest498', 0, 'out of gas'],
    ['stCreateTest', 'CreateOOGafterMaxCodesize', 1, 'execution reverted'],
    ['stCreateTest', 'CreateOOGafterMaxCodesize', 2, 'execution reverted'],
  ])(
    '%s/%s data %i needs more gas than the 50M eth_call cap: %s there, success with its own gas',
    async (group, name, data, capped) => {
      const c = theCase(group, name, data)
      expect(matchesFixture(c, await runTxCase(c))).toBeUndefined()
      const { request, gas } = callRequestOf(c)!
      const run = await execute(await callEnv(c), request, gas, undefined, { timeoutMs: 60_000 })
      expect(run.execResult.exceptionError).toBeUndefined()
      expect(run.totalGasSpent).toBeGreaterThan(RPC_GAS_CAP)
      await expect(ethCall(c)).rejects.toThrow(capped)
    },
    120_000,
  )
})
