import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { handlers } from '../../src/handlers/index.js'
import { post as postTo, request as call } from '../support/rpc.js'
import { createTestApp } from '../support/test-app.js'

let app: FastifyInstance

beforeAll(async () => {
  app = await createTestApp({
    handlers: {
      ...handlers,
      // the one fault a request cannot cause: a handler with a bug
      net_listening: () => {
        throw new Error('boom in /home/secret/handler.ts:12')
      },
    },
  })
})

afterAll(() => app.close())

const post = (payload: unknown) => postTo(app, payload)

describe('single requests', () => {
  test('answers a request with its id and result', async () => {
    const { status, json } = await post(call('eth_chainId', [], 7))
    expect(status).toBe(200)
    expect(json).toEqual({ jsonrpc: '2.0', id: 7, result: '0xc4' })
  })

  test('echoes string and null ids unchanged', async () => {
    expect((await post(call('eth_chainId', [], 'abc'))).json.id).toBe('abc')
    expect((await post(call('eth_chainId', [], null))).json).toEqual({ jsonrpc: '2.0', id: null, result: '0xc4' })
  })

  test('treats absent params as an empty list', async () => {
    const { json } = await post({ jsonrpc: '2.0', id: 1, method: 'eth_chainId' })
    expect(json.result).toBe('0xc4')
  })

  test('a notification (no id) runs but gets no reply', async () => {
    const { status, text } = await post({ jsonrpc: '2.0', method: 'eth_chainId', params: [] })
    expect(status).toBe(200)
    expect(text).toBe('')
  })

  test('a notification for an unknown method still gets no reply', async () => {
    expect((await post({ jsonrpc: '2.0', method: 'eth_nope', params: [] })).text).toBe('')
  })
})

describe('error codes', () => {
  test('unparsable JSON is -32700 with a null id', async () => {
    const { status, json } = await post('{"jsonrpc":"2.0","id":1,')
    expect(status).toBe(200)
    expect(json).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32700, message: expect.stringContaining('parse error') },
    })
  })

  test('an empty body is -32700', async () => {
    expect((await post('')).json.error.code).toBe(-32700)
  })

  test.each([
    ['jsonrpc "1.0"', { jsonrpc: '1.0', id: 1, method: 'eth_chainId', params: [] }, 1, 'jsonrpc must be "2.0"'],
    ['a missing jsonrpc member', { id: 2, method: 'eth_chainId', params: [] }, 2, 'jsonrpc must be "2.0"'],
    ['a missing method', { jsonrpc: '2.0', id: 3, params: [] }, 3, 'method must be a non-empty string'],
    [
      'a method that is not a string',
      { jsonrpc: '2.0', id: 4, method: 42, params: [] },
      4,
      'method must be a non-empty string',
    ],
    [
      'params that are a string',
      { jsonrpc: '2.0', id: 5, method: 'eth_chainId', params: 'x' },
      5,
      'params must be an array',
    ],
    [
      'params that are a number',
      { jsonrpc: '2.0', id: 6, method: 'eth_chainId', params: 1 },
      6,
      'params must be an array',
    ],
    [
      'an id that is an object',
      { jsonrpc: '2.0', id: { a: 1 }, method: 'eth_chainId', params: [] },
      null,
      'id must be',
    ],
    ['a body that is a string', 'hello', null, 'expected a JSON-RPC request object'],
    ['a body that is null', null, null, 'expected a JSON-RPC request object'],
  ])('%s is -32600', async (_name, body, id, message) => {
    const { status, json } = await post(JSON.stringify(body))
    expect(status).toBe(200)
    expect(json).toEqual({ jsonrpc: '2.0', id, error: { code: -32600, message: expect.stringContaining(message) } })
  })

  test('by-name params are -32602: every method takes positional params', async () => {
    const { json } = await post(call('web3_sha3', { data: '0x' }, 9))
    expect(json).toEqual({
      jsonrpc: '2.0',
      id: 9,
      error: { code: -32602, message: expect.stringContaining('positional') },
    })
  })

  test("an unknown method is -32601 with geth's text", async () => {
    const { json } = await post(call('eth_doesNotExist'))
    expect(json).toEqual({
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32601, message: 'the method eth_doesNotExist does not exist/is not available' },
    })
  })

  test('names inherited from Object.prototype are not methods', async () => {
    for (const name of ['toString', '__proto__', 'constructor', 'hasOwnProperty']) {
      expect((await post(call(name))).json.error).toEqual({
        code: -32601,
        message: `the method ${name} does not exist/is not available`,
      })
    }
  })

  test('a /flashblocks-only method is -32601 on /', async () => {
    const { json } = await post(call('op_supportedCapabilities'))
    expect(json.error).toEqual({
      code: -32601,
      message: 'the method op_supportedCapabilities does not exist/is not available',
    })
  })

  test('eth_subscribe over HTTP is -32601 notifications not supported, as geth', async () => {
    const { json } = await post(call('eth_subscribe', ['newHeads']))
    expect(json.error).toEqual({ code: -32601, message: 'notifications not supported' })
  })

  test('a bad parameter is -32602 naming the argument', async () => {
    const { json } = await post(call('web3_sha3', [42]))
    expect(json.error.code).toBe(-32602)
    expect(json.error.message).toMatch(/^invalid argument 0 \(\w+\): /)
  })

  test('a missing required parameter is -32602 naming it', async () => {
    const { json } = await post(call('web3_sha3', []))
    expect(json.error).toEqual({
      code: -32602,
      message: expect.stringMatching(/^missing value for required argument 0 \(\w+\)$/),
    })
  })

  test('too many parameters is -32602', async () => {
    const { json } = await post(call('eth_chainId', ['0x1']))
    expect(json.error).toEqual({ code: -32602, message: 'too many arguments, want at most 0' })
  })

  test('a handler that throws a plain Error is -32603 without its message or stack', async () => {
    const { status, json, text } = await post(call('net_listening'))
    expect(status).toBe(200)
    expect(json).toEqual({ jsonrpc: '2.0', id: 1, error: { code: -32603, message: 'internal error' } })
    expect(text).not.toMatch(/secret|boom|handler\.ts|at /)
  })
})

describe('batches', () => {
  test('answers every call in request order', async () => {
    const { json } = await post([
      call('net_version', [], 'a'),
      call('eth_chainId', [], 'b'),
      call('eth_syncing', [], 'c'),
    ])
    expect(json).toEqual([
      { jsonrpc: '2.0', id: 'a', result: '196' },
      { jsonrpc: '2.0', id: 'b', result: '0xc4' },
      { jsonrpc: '2.0', id: 'c', result: false },
    ])
  })

  test('valid and invalid items each get their own answer; notifications get none', async () => {
    const { json } = await post([
      call('eth_chainId', [], 1),
      { jsonrpc: '2.0', method: 'eth_chainId', params: [] },
      call('eth_nope', [], 2),
      42,
      { jsonrpc: '1.0', id: 3, method: 'eth_chainId' },
      call('web3_sha3', ['0x'], 4),
    ])
    expect(json).toEqual([
      { jsonrpc: '2.0', id: 1, result: '0xc4' },
      {
        jsonrpc: '2.0',
        id: 2,
        error: { code: -32601, message: 'the method eth_nope does not exist/is not available' },
      },
      { jsonrpc: '2.0', id: null, error: { code: -32600, message: expect.any(String) } },
      { jsonrpc: '2.0', id: 3, error: { code: -32600, message: expect.stringContaining('"2.0"') } },
      { jsonrpc: '2.0', id: 4, result: '0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470' },
    ])
  })

  test('a batch of only notifications gets an empty reply, as geth', async () => {
    const notification = { jsonrpc: '2.0', method: 'eth_chainId', params: [] }
    const { status, text } = await post([notification, notification])
    expect(status).toBe(200)
    expect(text).toBe('')
  })

  test('an empty batch is one -32600 error object, not an array', async () => {
    const { json } = await post([])
    expect(json).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'empty batch' } })
  })

  test('100 items are served and 101 are refused with one -32600 error', async () => {
    const items = (n: number) => Array.from({ length: n }, (_, i) => call('eth_chainId', [], i + 1))
    expect((await post(items(100))).json).toHaveLength(100)
    const { json } = await post(items(101))
    expect(json).toEqual([
      { jsonrpc: '2.0', id: 1, error: { code: -32600, message: expect.stringContaining('batch too large') } },
    ])
  })

  test('a nested batch is an invalid item, not a batch', async () => {
    const { json } = await post([[call('eth_chainId')]])
    expect(json).toEqual([{ jsonrpc: '2.0', id: null, error: { code: -32600, message: expect.any(String) } }])
  })
})
