import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { BOB } from '../support/dev-keys.js'
import { type Harness, startHarness } from '../support/harness.js'

describe('lenient and strict where geth is', () => {
  let h: Harness
  let tx: string

  beforeAll(async () => {
    h = await startHarness()
    tx = await h.wallet.sendTransaction({ to: BOB, value: 1n, gas: 21_000n, ...h.fees() })
    await h.mine()
  })
  afterAll(() => h?.close())

  test('debug_trace* ignore unknown and older config fields (disableMemory, reexec, an unknown tracerConfig key)', async () => {
    const configs = [
      { disableMemory: true },
      { disableStorage: true, reexec: 128 },
      { tracer: 'callTracer', tracerConfig: { onlyTopCall: true, somethingNew: 1 } },
    ]
    for (const config of configs) {
      const reply = await h.rpc('general', 'debug_traceTransaction', [tx, config])
      expect(reply.error).toBeUndefined()
      const block = await h.rpc('general', 'debug_traceBlockByNumber', ['latest', config])
      expect(block.error).toBeUndefined()
    }
    expect((await h.rpc('general', 'debug_traceTransaction', [tx, { tracer: 'noSuchTracer' }])).error?.code).toBe(
      -32602,
    )
  })

  test('block numbers and indexes above 64 bits answer -32602 `hex number > 64 bits`', async () => {
    const huge = `0x1${'0'.repeat(16)}`
    const calls: [string, unknown[]][] = [
      ['eth_getBlockByNumber', [huge, false]],
      ['eth_getBalance', [BOB, huge]],
      ['eth_getTransactionByBlockNumberAndIndex', ['latest', huge]],
      ['eth_getBlockTransactionCountByNumber', [`0x${'f'.repeat(10_000)}`]],
      ['debug_getRawBlock', [huge]],
    ]
    for (const [method, params] of calls) {
      const reply = await h.rpc('general', method, params)
      expect(reply.error?.code).toBe(-32602)
      expect(reply.error?.message).toMatch(/^invalid argument \d+ \([^)]+\): hex number > 64 bits$/)
    }
    const largest = await h.rpc('general', 'eth_getBlockByNumber', [`0x${'f'.repeat(16)}`, false])
    expect(largest).toMatchObject({ result: null })
  })

  test('a call object with blobVersionedHashes runs as a blob transaction: BLOBHASH sees them, a transfer estimates 21000', async () => {
    const hash = `0x01${'ab'.repeat(31)}`
    const blob = { blobVersionedHashes: [hash], maxFeePerBlobGas: '0x5', type: '0x3' }
    const estimate = await h.rpc('general', 'eth_estimateGas', [
      { ...blob, from: h.alice.address, to: BOB, value: '0x1' },
    ])
    expect(estimate).toMatchObject({ result: '0x5208' })
    // PUSH0 BLOBHASH PUSH0 MSTORE PUSH1 32 PUSH0 RETURN: returns the first blob hash
    const reader = '0x00000000000000000000000000000000000b10b5'
    const overrides = { [reader]: { code: '0x5f495f5260205ff3' } }
    const call = await h.rpc('general', 'eth_call', [
      { ...blob, from: h.alice.address, to: reader },
      'latest',
      overrides,
    ])
    expect(call).toMatchObject({ result: hash })
  })
})
