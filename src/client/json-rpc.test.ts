/**
 * The client core over a `send` that answers as a foreign or broken node might: replies this service
 * never gives (out of order, missing ids, no result) cannot be caused through a real server.
 */
import { describe, expect, test } from 'vitest'
import { createRpcClient, RpcResponseError, type RpcCallOf, type Send } from './json-rpc.js'

type Methods = {
  eth_chainId: { params: []; result: string }
  eth_getBalance: { params: [address: string, block?: string]; result: string }
}

type Request = { jsonrpc: string; id: number; method: string; params: unknown[] }

/** Records what was sent and answers with `reply(payload)`. */
function recording(reply: (payload: unknown) => unknown): { send: Send; sent: unknown[] } {
  const sent: unknown[] = []
  return {
    sent,
    send: async (payload) => {
      sent.push(payload)
      return reply(payload)
    },
  }
}

type Call = RpcCallOf<Methods>

const echoResults = (payload: unknown) =>
  Array.isArray(payload)
    ? (payload as Request[]).map((r) => ({ jsonrpc: '2.0', id: r.id, result: r.method }))
    : { jsonrpc: '2.0', id: (payload as Request).id, result: (payload as Request).method }

describe('calls', () => {
  test('each named method sends its arguments as positional params with a fresh id', async () => {
    const { send, sent } = recording(echoResults)
    const client = createRpcClient<Methods>(send, ['eth_chainId', 'eth_getBalance'])
    expect(await client.eth_getBalance('0xab', 'pending')).toBe('eth_getBalance')
    expect(await client.request('eth_chainId', [])).toBe('eth_chainId')
    expect(await client.call('eth_unknown')).toBe('eth_unknown')
    expect(sent).toEqual([
      { jsonrpc: '2.0', id: 1, method: 'eth_getBalance', params: ['0xab', 'pending'] },
      { jsonrpc: '2.0', id: 2, method: 'eth_chainId', params: [] },
      { jsonrpc: '2.0', id: 3, method: 'eth_unknown', params: [] },
    ])
  })

  test('an error answer is thrown as an RpcResponseError with its code and data', async () => {
    const { send } = recording(() => ({
      jsonrpc: '2.0',
      id: 1,
      error: { code: 3, message: 'execution reverted', data: '0x08c379a0' },
    }))
    const error = await createRpcClient<Methods>(send, [])
      .call('eth_call')
      .catch((err: unknown) => err)
    expect(error).toBeInstanceOf(RpcResponseError)
    expect(error).toMatchObject({
      name: 'RpcResponseError',
      code: 3,
      message: 'execution reverted',
      data: '0x08c379a0',
    })
  })

  test('a reply that is not an object, or has no result, is an error', async () => {
    await expect(createRpcClient<Methods>(recording(() => 'nope').send, []).call('eth_chainId')).rejects.toThrow(
      'malformed JSON-RPC reply: "nope"',
    )
    await expect(
      createRpcClient<Methods>(recording(() => ({ jsonrpc: '2.0', id: 1 })).send, []).call('eth_chainId'),
    ).rejects.toThrow('JSON-RPC reply without result')
  })

  test('a null result is a result', async () => {
    expect(
      await createRpcClient<Methods>(recording(() => ({ jsonrpc: '2.0', id: 1, result: null })).send, []).call(
        'eth_getBlockByHash',
      ),
    ).toBeNull()
  })
})

describe('batches', () => {
  test('answers are matched to calls by id, whatever order they arrive in', async () => {
    const { send } = recording((payload) => (echoResults(payload) as unknown[]).reverse())
    const outcomes = await createRpcClient<Methods>(send, []).batch([
      { method: 'eth_chainId', params: [] },
      { method: 'eth_getBalance', params: ['0xab'] },
    ])
    expect(outcomes).toEqual([{ result: 'eth_chainId' }, { result: 'eth_getBalance' }])
  })

  test('an error entry is an outcome, not a throw', async () => {
    const { send } = recording((payload) =>
      (payload as Request[]).map((r) =>
        r.method === 'eth_chainId'
          ? { id: r.id, result: '0xc4' }
          : { id: r.id, error: { code: -32602, message: 'bad' } },
      ),
    )
    const outcomes = await createRpcClient<Methods>(send, []).batch([
      { method: 'eth_chainId', params: [] },
      { method: 'eth_getBalance', params: ['0x'] },
    ])
    expect(outcomes).toEqual([{ result: '0xc4' }, { error: { code: -32602, message: 'bad' } }])
  })

  test('a batch refused as a whole throws the refusal', async () => {
    const refusal = { code: -32600, message: 'batch too large' }
    const calls: Call[] = [
      { method: 'eth_chainId', params: [] },
      { method: 'eth_chainId', params: [] },
    ]
    await expect(
      createRpcClient<Methods>(recording(() => ({ id: null, error: refusal })).send, []).batch(calls),
    ).rejects.toMatchObject(refusal)
    await expect(
      createRpcClient<Methods>(recording(() => [{ id: null, error: refusal }]).send, []).batch(calls),
    ).rejects.toMatchObject(refusal)
  })

  test('a reply missing an answer, or not a list, is an error', async () => {
    const calls: Call[] = [{ method: 'eth_chainId', params: [] }]
    await expect(createRpcClient<Methods>(recording(() => []).send, []).batch(calls)).rejects.toThrow(
      'batch reply has no answer for id 1',
    )
    await expect(createRpcClient<Methods>(recording(() => ({ result: 1 })).send, []).batch(calls)).rejects.toThrow(
      'malformed batch reply',
    )
  })
})
