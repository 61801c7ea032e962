/**
 * Property test of hostile input: 10 000 generated requests (wrong types, bad quantities and hex, huge and
 * nested values, prototype keys, unicode, random methods of the table with random params, mixed batches)
 * against a real service. Every reply is a JSON-RPC 2.0 reply with an allowed code, never -32603, and the
 * service still answers a valid request afterwards.
 */
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { methodTable } from '../../generated/methods.js'
import { startService, type RunningService } from '../../src/service.js'
import { post as postTo } from '../support/rpc.js'

const METHODS = Object.keys(methodTable)
const ALLOWED = new Set([-32700, -32600, -32601, -32602, -32000, -32001, -32002, -32005, 3, 4])

const hexish = fc.oneof(
  fc.constantFrom(
    '0x',
    '0x0',
    '0x00',
    '0x01',
    '0xzz',
    '0x123',
    'deadbeef',
    '-0x1',
    `0x${'f'.repeat(65)}`,
    `0x${'ff'.repeat(20)}`,
  ),
  fc.string().map((s) => `0x${s}`),
)
const scalar = fc.oneof(
  hexish,
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.string({ unit: 'grapheme' }),
  fc.bigInt().map(String),
)
const value: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  v: fc.oneof(
    { depthSize: 'small' },
    scalar,
    fc.array(tie('v'), { maxLength: 4 }),
    fc.dictionary(
      fc.oneof(fc.string(), fc.constantFrom('__proto__', 'constructor', 'to', 'from', 'data', 'blockHash')),
      tie('v'),
      { maxKeys: 4 },
    ),
  ),
})).v
const request = fc.record(
  {
    jsonrpc: fc.oneof(fc.constant('2.0'), fc.constant('2.0'), scalar),
    id: fc.oneof(fc.integer(), fc.string(), fc.constant(null), fc.double()),
    method: fc.oneof(fc.constantFrom(...METHODS), fc.constantFrom(...METHODS), fc.string(), scalar),
    params: fc.oneof(fc.array(value, { maxLength: 4 }), value),
  },
  { requiredKeys: [] },
)
const body = fc.oneof(
  { weight: 6, arbitrary: request.map((r) => JSON.stringify(r)) },
  { weight: 2, arbitrary: fc.array(request, { maxLength: 8 }).map((b) => JSON.stringify(b)) },
  { weight: 1, arbitrary: fc.string() },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 2000 }).map((n) => '['.repeat(n) + ']'.repeat(n)) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '{"jsonrpc":"2.0","id":1,"id":2,"method":"eth_chainId","params":[]}',
      '{"__proto__":{"x":1},"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}',
    ),
  },
)

function checkReply(reply: unknown): void {
  const replies = Array.isArray(reply) ? reply : [reply]
  for (const r of replies) {
    expect(r).toMatchObject({ jsonrpc: '2.0' })
    const item = r as { error?: { code: number; message: string }; result?: unknown }
    if (item.error) {
      expect(ALLOWED.has(item.error.code), `code ${item.error.code}: ${item.error.message}`).toBe(true)
      expect(item.error.message).not.toMatch(/\n\s+at /) // never a stack
    } else expect('result' in item).toBe(true)
  }
}

describe('hostile input', () => {
  let service: RunningService
  beforeAll(async () => {
    service = await startService({ port: 0, quiet: true, rateLimit: 0 })
  })
  afterAll(() => service?.close())

  const post = (payload: string | Buffer) => postTo(service.url, payload, { timeoutMs: 10_000 })

  test('10 000 generated requests all get well-formed JSON-RPC replies, and the service keeps answering', async () => {
    const seed = 20261122
    const samples = fc.sample(body, { numRuns: 10_000, seed })
    for (let i = 0; i < samples.length; i += 50) {
      await Promise.all(
        samples.slice(i, i + 50).map(async (payload) => {
          const res = await post(payload)
          expect(res.status, `status for ${payload.slice(0, 200)} (seed ${seed})`).toBeLessThan(500)
          const text = res.text
          if (text === '') return // notifications only
          checkReply(JSON.parse(text))
        }),
      )
    }
    const ok = (await post('{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}')).json
    expect(ok).toEqual({ jsonrpc: '2.0', id: 1, result: '0xc4' })
  }, 180_000)

  test('invalid UTF-8, a 10 MB string and deep nesting are refused cleanly', async () => {
    const bad = Buffer.concat([
      Buffer.from('{"jsonrpc":"2.0","id":1,"method":"eth_getBalance","params":["'),
      Buffer.from([0xff, 0xfe, 0xc3]),
      Buffer.from('"]}'),
    ])
    checkReply((await post(bad)).json)
    const huge = await post(
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'web3_sha3', params: [`0x${'ab'.repeat(5_000_000)}`] }),
    )
    expect(huge.status).toBe(413)
    checkReply(huge.json)
    checkReply((await post('['.repeat(100_000) + ']'.repeat(100_000))).json)
    expect((await post('{"jsonrpc":"2.0","id":7,"method":"net_version","params":[]}')).json).toEqual({
      jsonrpc: '2.0',
      id: 7,
      result: '196',
    })
  })
})
