/**
 * One process serves every request and builds the flashblocks. An eth_call that loops until its gas is gone
 * runs for hundreds of milliseconds; before, it held the event loop for all of it: every other request, and
 * the sequencer's 200 ms flashblocks, waited.
 */
import { getContractAddress, type Hex } from 'viem'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { startService, type RunningService } from '../../src/service.js'
import { devAccount } from '../support/dev-keys.js'
import { call, rpc } from '../support/rpc.js'
import { signTx } from '../support/sign-tx.js'
import { until } from '../support/wait-for.js'

let service: RunningService
let loop: Hex

beforeAll(async () => {
  service = await startService({ port: 0, quiet: true, rateLimit: 0 })
  // runtime JUMPDEST PUSH1 0 JUMP, returned by PUSH4 it, PUSH1 0, MSTORE, PUSH1 4, PUSH1 28, RETURN
  const data = Uint8Array.from(Buffer.from('635b6000566000526004601cf3', 'hex'))
  const nonce = Number(await call(service.url, 'eth_getTransactionCount', [devAccount.address, 'pending']))
  await service.chain.sendRawTransaction(await signTx(service.chain, 0, { to: null, nonce, gas: 100_000n, data }))
  loop = getContractAddress({ from: devAccount.address, nonce: BigInt(nonce) })
  await until(async () => (await call(service.url, 'eth_getCode', [loop, 'latest'])) !== '0x', 'the loop deployed')
})

afterAll(() => service?.close())

/**
 * How a loop at the 50M gas cap ends: by its gas, or, on a machine too busy to run it in 5 s, by the call
 * budget (geth's answer too). Which one is the machine's speed; what is under test is that the light request
 * is answered while it runs. That a sliced run ends with the right result is call-budget.test.ts's, with a
 * budget it never reaches.
 */
const LOOP_ENDS = [
  { code: -32000, message: 'out of gas' },
  { code: -32002, message: 'execution aborted (timeout = 5s)' },
]

/**
 * Sends `heavy` (method and params each), then eth_blockNumber once the server has them all: what happened
 * in order (the replies, and flashblocks built), and the heavy replies.
 */
async function sendBeside(heavy: [string, unknown[]][]) {
  const seen: string[] = []
  const off = service.chain.on('flashblock', () => seen.push('flashblock'))
  const server = service.app.server
  let arrived = 0
  const allArrived = new Promise<void>((resolve) => {
    const onRequest = () => {
      if (++arrived < heavy.length) return
      server.off('request', onRequest)
      resolve()
    }
    server.on('request', onRequest)
  })
  const running = heavy.map(([method, params]) =>
    rpc(service.url, method, params).then((reply) => {
      seen.push('heavy')
      return reply
    }),
  )
  await allArrived
  const light = rpc(service.url, 'eth_blockNumber').then((reply) => {
    seen.push('eth_blockNumber')
    return reply
  })
  const [answers, number] = [await Promise.all(running), await light]
  off()
  expect(number.result).toMatch(/^0x[0-9a-f]+$/)
  return { answers, first: { light: seen.indexOf('eth_blockNumber'), heavy: seen.indexOf('heavy') }, seen }
}

test('a request sent while three looping eth_calls run is answered first, and flashblocks are built meanwhile', async () => {
  // different calldata (the loop ignores it): three runs, not one the call memo shares
  const { answers, first, seen } = await sendBeside(
    ['0x01', '0x02', '0x03'].map((data) => ['eth_call', [{ to: loop, data }, 'latest']]),
  )
  for (const reply of answers) expect(LOOP_ENDS).toContainEqual(reply.error)
  expect(first.light).toBeGreaterThanOrEqual(0)
  expect(first.light).toBeLessThan(first.heavy)
  expect(seen.slice(first.light, first.heavy)).toContain('flashblock')
})

test('the same beside a looping call sent with a value (runTx’s path) and inside eth_simulateV1', async () => {
  const from = devAccount.address
  const { answers, first } = await sendBeside([
    ['eth_call', [{ from, to: loop, value: '0x1' }, 'latest']],
    ['eth_simulateV1', [{ blockStateCalls: [{ calls: [{ from, to: loop, gas: '0xf42400' }] }] }, 'latest']],
  ])
  expect(LOOP_ENDS).toContainEqual(answers[0]!.error)
  const simulated = answers[1]!
  // the simulation's loop ends as a failed call (status 0), or the request as the budget's error
  if (simulated.error) expect(LOOP_ENDS).toContainEqual(simulated.error)
  else expect((simulated.result as { calls: { status: string }[] }[])[0]!.calls[0]!.status).toBe('0x0')
  expect(first.light).toBeGreaterThanOrEqual(0)
  expect(first.light).toBeLessThan(first.heavy)
})
