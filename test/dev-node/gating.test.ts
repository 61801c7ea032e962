/**
 * The dev-node methods are a dev node's, not a public endpoint's: every one refuses bad params with -32602
 * naming the parameter, and every one answers -32601 (as an unknown method, absent from rpc.discover) with
 * --no-dev-methods, on a non-loopback --host without --dev-methods, and in follower mode.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { methodTable } from '../../generated/methods.js'
import { startService, type RunningFollower, type RunningService } from '../../src/service.js'
import { rpc } from '../support/rpc.js'

const DEV_METHODS = Object.values(methodTable).filter((spec) => spec.devNode)
const A = '0x000000000000000000000000000000000000dEaD'

const quiet = { port: 0, quiet: true, rateLimit: 0, mining: false } as const

/** Every dev method with one valid-looking argument list (what matters is the -32601 before any check). */
async function answers(url: string): Promise<Map<string, number | 'ok'>> {
  const out = new Map<string, number | 'ok'>()
  for (const spec of DEV_METHODS) {
    const reply = await rpc(url, spec.name, [])
    out.set(spec.name, reply.error?.code ?? 'ok')
  }
  return out
}

async function discovered(url: string): Promise<string[]> {
  const reply = await rpc(url, 'rpc.discover')
  return (reply.result as { methods: { name: string }[] }).methods.map((m) => m.name)
}

describe('with dev methods on (the embedded chain on loopback)', () => {
  let service: RunningService
  beforeAll(async () => {
    service = await startService(quiet)
  })
  afterAll(() => service?.close())

  test('there are the methods the issue names, and Hardhat aliases of those Hardhat has', () => {
    const names = DEV_METHODS.map((spec) => spec.name)
    for (const name of [
      'anvil_setBalance',
      'anvil_autoImpersonateAccount',
      'evm_setIntervalMining',
      'anvil_removeBlockTimestampInterval',
      'anvil_setLoggingEnabled',
      'txpool_inspect',
      'hardhat_mine',
      'hardhat_metadata',
    ])
      expect(names).toContain(name)
    expect(names).not.toContain('hardhat_dumpState')
    expect(names.length).toBeGreaterThanOrEqual(50)
  })

  test.each(DEV_METHODS.filter((spec) => spec.paramNames.length > 0).map((spec) => [spec.name, spec.paramNames[0]]))(
    '%s refuses a bad first param with -32602 naming %s',
    async (method, param) => {
      const reply = await rpc(service.url, method, ['zz'])
      expect(reply.error?.code).toBe(-32602)
      expect(reply.error?.message).toContain(`invalid argument 0 (${param})`)
    },
  )

  test.each(DEV_METHODS.filter((spec) => spec.paramNames.length === 0).map((spec) => [spec.name]))(
    '%s refuses params it does not take with -32602',
    async (method) => {
      const reply = await rpc(service.url, method, [1])
      expect(reply.error).toEqual({ code: -32602, message: 'too many arguments, want at most 0' })
    },
  )

  test('values out of range are refused naming the parameter', async () => {
    const refused = async (method: string, params: unknown[]) => (await rpc(service.url, method, params)).error
    expect(await refused('anvil_setNonce', [A, `0x1${'0'.repeat(16)}`])).toMatchObject({
      code: -32602,
      message: expect.stringContaining('invalid argument 1 (nonce)'),
    })
    expect(await refused('anvil_setBalance', [A, -1])).toMatchObject({
      code: -32602,
      message: expect.stringContaining('invalid argument 1 (balance)'),
    })
    expect(await refused('evm_setBlockGasLimit', ['0x0'])).toMatchObject({
      code: -32602,
      message: expect.stringContaining('invalid argument 0 (gasLimit)'),
    })
    expect(await refused('anvil_setStorageAt', [A, '0x0', '0x01'])).toMatchObject({
      code: -32602,
      message: expect.stringContaining('invalid argument 2 (value)'),
    })
    expect(await refused('evm_setNextBlockTimestamp', [1])).toEqual({
      code: -32602,
      message: "Timestamp error: 1 is lower than previous block's timestamp",
    })
    expect(await refused('evm_mine', [{ blocks: '0x1', when: 5 }])).toMatchObject({ code: -32602 })
    expect(await refused('anvil_loadState', ['0x00'])).toMatchObject({
      code: -32602,
      message: expect.stringContaining('anvil_loadState'),
    })
  })

  test('rpc.discover lists them', async () => {
    expect(await discovered(service.url)).toEqual(expect.arrayContaining(DEV_METHODS.map((spec) => spec.name)))
  })
})

describe('with dev methods off', () => {
  const cases: [string, () => Promise<{ url: string; close(): Promise<void> }>][] = [
    ['--no-dev-methods', () => startService({ ...quiet, devMethods: false })],
    ['a non-loopback --host', () => startService({ ...quiet, host: '0.0.0.0' })],
  ]

  test.each(cases)(
    '%s: each answers -32601 as an unknown method and rpc.discover leaves them out',
    async (_, start) => {
      const service = await start()
      try {
        const codes = await answers(service.url)
        expect([...codes.values()].every((code) => code === -32601)).toBe(true)
        expect((await rpc(service.url, 'anvil_setBalance', [A, '0x1'])).error).toEqual({
          code: -32601,
          message: 'the method anvil_setBalance does not exist/is not available',
        })
        const names = await discovered(service.url)
        expect(names).toContain('eth_getBalance')
        expect(names.filter((name) => DEV_METHODS.some((spec) => spec.name === name))).toEqual([])
      } finally {
        await service.close()
      }
    },
  )

  test('--dev-methods serves them on a non-loopback --host', async () => {
    const service = await startService({ ...quiet, host: '0.0.0.0', devMethods: true })
    try {
      expect((await rpc(service.url, 'anvil_setBalance', [A, '0x1'])).result).toBeNull()
    } finally {
      await service.close()
    }
  })

  test('follower mode: each answers -32601, though its upstream serves them', async () => {
    const leader = await startService(quiet)
    let follower: RunningFollower | undefined
    try {
      follower = await startService({ ...quiet, mining: true, upstream: leader.url })
      const codes = await answers(follower.url)
      expect([...codes.values()].every((code) => code === -32601)).toBe(true)
      expect((await rpc(leader.url, 'anvil_setBalance', [A, '0x1'])).result).toBeNull()
    } finally {
      await follower?.close()
      await leader.close()
    }
  })
})
