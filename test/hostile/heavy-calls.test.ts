/**
 * One process serves every request and builds the flashblocks. An eth_call that loops until its gas is gone
 * runs for hundreds of milliseconds; before, it held the event loop for all of it: every other request, and
 * the sequencer's 200 ms flashblocks, waited. The service here runs with `--rpc.evmtimeout 0` (no time
 * budget), so every loop ends by its gas on an idle machine and on a busy one alike; the budget itself is
 * the last test's, which a loop of millions of steps passes long before its gas is gone.
 */
import { getContractAddress, type Hex } from 'viem'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { parseCommandLine } from '../../src/flags.js'
import { startService, type RunningService } from '../../src/service.js'
import { devAccount } from '../support/dev-keys.js'
import { call, rpc } from '../support/rpc.js'
import { signTx } from '../support/sign-tx.js'
import { until } from '../support/wait-for.js'

let service: RunningService
let loop: Hex

beforeAll(async () => {
  service = await startService({ port: 0, quiet: true, rateLimit: 0, evmTimeoutMs: 0 })
  // runtime JUMPDEST PUSH1 0 JUMP, returned by PUSH4 it, PUSH1 0, MSTORE, PUSH1 4, PUSH1 28, RETURN
  const data = Uint8Array.from(Buffer.from('635b6000566000526004601cf3', 'hex'))
  const nonce = Number(await call(service.url, 'eth_getTransactionCount', [devAccount.address, 'pending']))
  await service.chain.sendRawTransaction(await signTx(service.chain, 0, { to: null, nonce, gas: 100_000n, data }))
  loop = getContractAddress({ from: devAccount.address, nonce: BigInt(nonce) })
  await until(async () => (await call(service.url, 'eth_getCode', [loop, 'latest'])) !== '0x', 'the loop deployed')
})

afterAll(() => service?.close())

/** How a loop ends without a time budget: its gas is gone. */
const OUT_OF_GAS = { code: -32000, message: 'out of gas' }
/** The loops run to their end: a few seconds of CPU, several times that beside other work (tens of seconds at load 13-18). */
const LOOPS_MS = 180_000
/** 20M gas: ~5M steps a loop, hundreds of ms of CPU on an idle machine, so flashblocks (200 ms) are built meanwhile. */
const LOOP_GAS = '0x1312d00'

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

test(
  'a request sent while three looping eth_calls run is answered first, and flashblocks are built meanwhile',
  async () => {
    // different calldata (the loop ignores it): three runs, not one the call memo shares
    const { answers, first, seen } = await sendBeside(
      ['0x01', '0x02', '0x03'].map((data) => ['eth_call', [{ to: loop, data, gas: LOOP_GAS }, 'latest']]),
    )
    for (const reply of answers) expect(reply.error).toEqual(OUT_OF_GAS)
    expect(first.light).toBeGreaterThanOrEqual(0)
    expect(first.light).toBeLessThan(first.heavy)
    expect(seen.slice(first.light, first.heavy)).toContain('flashblock')
  },
  LOOPS_MS,
)

test(
  'the same beside a looping call sent with a value (runTx’s path) and inside eth_simulateV1',
  async () => {
    const from = devAccount.address
    const { answers, first } = await sendBeside([
      ['eth_call', [{ from, to: loop, value: '0x1', gas: '0xf42400' }, 'latest']],
      ['eth_simulateV1', [{ blockStateCalls: [{ calls: [{ from, to: loop, gas: '0xf42400' }] }] }, 'latest']],
    ])
    expect(answers[0]!.error).toEqual(OUT_OF_GAS)
    // the simulation's loop ends as a failed call, its gas all used
    const [block] = answers[1]!.result as {
      calls: { status: string; gasUsed: string; error?: { message: string } }[]
    }[]
    expect(block!.calls[0]).toMatchObject({ status: '0x0', gasUsed: '0xf42400', error: { message: 'out of gas' } })
    expect(first.light).toBeGreaterThanOrEqual(0)
    expect(first.light).toBeLessThan(first.heavy)
  },
  LOOPS_MS,
)

/**
 * `--rpc.evmtimeout`: the same loop under a 1 ms budget answers geth's -32002 from every method it covers, on
 * the plain-call path and runTx's. Its 50M gas are millions of EVM steps, hundreds of milliseconds on any
 * machine; the budget is looked at every 1024 steps, so the loop is always stopped by it, never by its gas.
 */
test('with --rpc.evmtimeout 1ms a looping call, estimate, access list and simulation answer -32002, naming the budget', async () => {
  const { evmTimeoutMs } = parseCommandLine(['--rpc.evmtimeout', '1ms']).settings
  const budgeted = await startService({ port: 0, quiet: true, rateLimit: 0, mining: false, evmTimeoutMs })
  try {
    const at = `0x${'42'.repeat(20)}`
    await call(budgeted.url, 'anvil_setCode', [at, '0x5b600056'])
    const from = devAccount.address
    const answers = await Promise.all([
      rpc(budgeted.url, 'eth_call', [{ to: at }, 'latest']),
      rpc(budgeted.url, 'eth_call', [{ from, to: at, value: '0x1' }, 'latest']),
      rpc(budgeted.url, 'eth_estimateGas', [{ from, to: at }]),
      rpc(budgeted.url, 'eth_createAccessList', [{ from, to: at }]),
      rpc(budgeted.url, 'eth_simulateV1', [{ blockStateCalls: [{ calls: [{ from, to: at }] }] }, 'latest']),
    ])
    for (const reply of answers)
      expect(reply.error).toEqual({ code: -32002, message: 'execution aborted (timeout = 1ms)' })
  } finally {
    await budgeted.close()
  }
})
