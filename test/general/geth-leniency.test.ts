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
})
