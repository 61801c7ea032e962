import { encodeFunctionData } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { BOB } from '../support/dev-keys.js'
import { testToken } from '../support/fixtures.js'
import { type Harness, startHarness } from '../support/harness.js'

/**
 * Calls with state overrides, estimates, simulations, traces and calls at many state roots each need a VM of their own, and
 * @ethereumjs's EVM subscribes to its Common's 'hardforkChanged' event for good: a VM made on the chain's Common
 * stays reachable from it, with its state manager, for the life of the process. A node serving these for days
 * must not keep one per request or per flashblock.
 */
describe('VMs made for requests do not outlive them', () => {
  let h: Harness
  let token: `0x${string}`
  beforeAll(async () => {
    h = await startHarness()
    token = (await h.deployToken(1000n)).address
  })
  afterAll(() => h?.close())

  test("calls with overrides, estimates, simulations, traces and calls at 20 roots leave no VM on the chain's Common", async () => {
    const listeners = () => h.chain.common.events.listenerCount('hardforkChanged')
    const before = listeners()
    const data = encodeFunctionData({ abi: testToken.abi, functionName: 'transfer', args: [BOB, 1n] })
    const from = h.alice.address
    for (let i = 0; i < 20; i++) {
      // a new root each time: the pool's warm VMs are per root
      const sent = await h.transferToken(token, BOB, 1n)
      await h.chain.buildNow()
      for (const endpoint of ['general', 'flashblocks'] as const) {
        const override = { [from]: { balance: '0xffffffffffffffffffff' } }
        const called = await h.rpc(endpoint, 'eth_call', [{ from, to: token, data }, 'pending', override])
        expect(called.result, JSON.stringify(called)).toBe(`0x${'1'.padStart(64, '0')}`)
        const estimated = await h.rpc(endpoint, 'eth_estimateGas', [{ from, to: token, data }, 'pending'])
        expect(estimated.result, JSON.stringify(estimated)).toMatch(/^0x[0-9a-f]+$/)
      }
      const simulated = await h.rpc('flashblocks', 'eth_simulateV1', [
        { blockStateCalls: [{ calls: [{ from, to: token, data }] }] },
        'pending',
      ])
      expect((simulated.result as { calls: { status: string }[] }[])[0]!.calls[0]!.status).toBe('0x1')
      const trace = await h.rpc('flashblocks', 'debug_traceTransaction', [sent, { tracer: 'callTracer' }])
      expect((trace.result as { to: string }).to, JSON.stringify(trace)).toBe(token)
    }
    expect(listeners()).toBe(before)
  })

  test("a burst of distinct calls, more than the idle EVMs kept, leaves no EVM on the chain's Common", async () => {
    const listeners = () => h.chain.common.events.listenerCount('hardforkChanged')
    const before = listeners()
    const balanceOf = encodeFunctionData({ abi: testToken.abi, functionName: 'balanceOf', args: [BOB] })
    const answers = await Promise.all(
      Array.from({ length: 64 }, (_, i) =>
        // a different trailing word each: no call answers from another's run
        h.rpc('flashblocks', 'eth_call', [{ to: token, data: `${balanceOf}${i.toString(16).padStart(64, '0')}` }]),
      ),
    )
    for (const answer of answers) expect(answer.result, JSON.stringify(answer)).toMatch(/^0x[0-9a-f]{64}$/)
    expect(listeners()).toBe(before)
  })
})
