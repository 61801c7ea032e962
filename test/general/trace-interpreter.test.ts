import { type Abi, encodeFunctionData, type Hex, toHex } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import heavy from '../fixtures/HeavyCalls.json' with { type: 'json' }
import { interpreterStats } from '../../src/evm/interpreter/stats.js'
import { BOB } from '../support/dev-keys.js'
import { testToken } from '../support/fixtures.js'
import { type Harness, startHarness } from '../support/harness.js'

const heavyCalls = heavy.HeavyCalls as unknown as { abi: Abi; bytecode: Hex }
const CONFIGS = [
  { tracer: 'callTracer', tracerConfig: { withLog: true } },
  { tracer: 'callTracer', tracerConfig: { onlyTopCall: true } },
  { tracer: 'prestateTracer' },
  { tracer: 'prestateTracer', tracerConfig: { diffMode: true } },
  {},
]

/**
 * debug_trace* through the real service with the interpreter (the default) and with PRECONF_EVM_INTERPRETER=0
 * (every frame on @ethereumjs with its step events, the reference path): the same JSON for every tracer, and
 * the frames the interpreter ran, or handed back, counted.
 */
describe('traces with the interpreter', () => {
  let h: Harness
  let token: Hex
  let calls: Hex
  let txs: Hex[]
  let blockNumber: Hex
  const holders = Array.from({ length: 12 }, (_, i) => `0x${(0xa11ce0 + i).toString(16).padStart(40, '0')}` as Hex)
  const call = (functionName: string, args: unknown[]) =>
    encodeFunctionData({ abi: heavyCalls.abi, functionName, args } as never)
  const tokenCall = (functionName: string, args: unknown[]) =>
    encodeFunctionData({ abi: testToken.abi, functionName, args } as never)
  /** An aggregate of balanceOf calls, and, with `failing`, a transfer under STATICCALL (a failed frame, then a revert). */
  const aggregate = (failing = false) =>
    call('aggregate', [
      [
        ...holders.map((holder) => ({ target: token, callData: tokenCall('balanceOf', [holder]) })),
        ...(failing ? [{ target: token, callData: tokenCall('transfer', [BOB, 1n]) }] : []),
      ],
    ])

  beforeAll(async () => {
    h = await startHarness()
    token = (await h.deployToken(10n ** 24n)).address
    const deployed = await h.wallet.deployContract({
      abi: heavyCalls.abi,
      bytecode: heavyCalls.bytecode,
      gas: 3_000_000n,
      ...h.fees(),
    })
    await h.mine()
    calls = (await h.general.getTransactionReceipt({ hash: deployed })).contractAddress!
    await h.wallet.sendTransaction({ to: calls, data: call('addPools', [4n, 7n]), gas: 2_000_000n, ...h.fees() })
    await h.mine()
    const send = (to: Hex, data: Hex) => h.wallet.sendTransaction({ to, data, gas: 3_000_000n, ...h.fees() })
    txs = []
    for (const holder of holders.slice(0, 6)) txs.push(await h.transferToken(token, holder, 7n))
    txs.push(await send(token, tokenCall('transfer', [BOB, 10n ** 30n]))) // reverts: more than the balance
    txs.push(await send(calls, aggregate()))
    txs.push(await send(calls, aggregate(true))) // reverts with "call failed"
    txs.push(await send(calls, call('quote', [10n ** 20n, 3n])))
    txs.push(await send(token, tokenCall('spawn', []))) // a CREATE: handed back
    txs.push(await h.transferToken(token, BOB, 1n))
    blockNumber = toHex((await h.mine()).number)
  }, 60_000)
  afterAll(() => h?.close())

  /** The method's answer on the reference path, then on the interpreter, and the frames the interpreter ran. */
  async function both(method: string, params: unknown[]) {
    process.env.PRECONF_EVM_INTERPRETER = '0'
    const reference = await h.rpc('general', method, params).finally(() => delete process.env.PRECONF_EVM_INTERPRETER)
    const before = interpreterStats.traced
    const ours = await h.rpc('general', method, params)
    expect(reference.error).toBeUndefined()
    return { reference: reference.result, ours: ours.result, interpreted: interpreterStats.traced - before }
  }

  test('debug_traceTransaction answers as the reference path for every tracer, the replay before it on the interpreter', async () => {
    for (const config of CONFIGS) {
      for (const [i, hash] of txs.entries()) {
        const { reference, ours, interpreted } = await both('debug_traceTransaction', [hash, config])
        expect(ours, `${JSON.stringify(config)} of transaction ${i}`).toEqual(reference)
        // the block's L1-info deposit and the transactions before this one replayed, then this one
        expect(interpreted).toBeGreaterThanOrEqual(i)
      }
    }
  }, 120_000)

  test('debug_traceBlockByNumber answers as the reference path, every transaction traced on the interpreter but the CREATE', async () => {
    const traceFallbacks = new Map(interpreterStats.traceFallbacks)
    for (const config of CONFIGS.slice(0, 4)) {
      const { reference, ours, interpreted } = await both('debug_traceBlockByNumber', [blockNumber, config])
      expect(ours, JSON.stringify(config)).toEqual(reference)
      expect(interpreted).toBe(txs.length) // the deposit and every transaction but the spawn
    }
    const handedBack = (reason: string) =>
      (interpreterStats.traceFallbacks.get(reason) ?? 0) - (traceFallbacks.get(reason) ?? 0)
    expect(handedBack('CREATE')).toBe(4)
  }, 60_000)

  test('debug_traceCall answers as the reference path for every tracer, on the block and at a txIndex', async () => {
    const requests = [
      { to: calls, data: aggregate() },
      { to: calls, data: aggregate(true) },
      { to: calls, data: call('quote', [10n ** 20n, 5n]) },
      { from: h.alice.address, to: token, data: tokenCall('transfer', [BOB, 3n]) },
    ]
    for (const config of CONFIGS)
      for (const [i, request] of requests.entries()) {
        const at = await both('debug_traceCall', [{ ...request, gas: toHex(5_000_000) }, 'latest', config])
        expect(at.ours, `${JSON.stringify(config)} of call ${i}`).toEqual(at.reference)
        const replayed = await both('debug_traceCall', [
          { ...request, gas: toHex(5_000_000) },
          blockNumber,
          { ...config, txIndex: toHex(txs.length) },
        ])
        expect(replayed.ours, `${JSON.stringify(config)} of call ${i} at txIndex`).toEqual(replayed.reference)
        expect(replayed.interpreted).toBeGreaterThan(at.interpreted)
      }
  }, 120_000)
})
