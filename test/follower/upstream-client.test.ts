/**
 * The follower's HTTP client against anvil: calls and batches answer what anvil answers, anvil's own
 * errors reach the caller unchanged, and an upstream that is closed, frozen (SIGSTOP) or not JSON-RPC
 * fails with UpstreamUnavailableError naming it, then works again once the upstream is back.
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { toJsonRpcError, UpstreamRpcError, UpstreamUnavailableError } from '../../src/errors.js'
import { UpstreamClient } from '../../src/follower/upstream-client.js'
import { startAnvil, type RunningAnvil } from '../support/anvil.js'
import { freePort } from '../support/free-port.js'
import { call as rpc } from '../support/rpc.js'
import { freeze } from '../support/wait-for.js'

const DEV0 = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266'

describe('UpstreamClient', () => {
  let anvil: RunningAnvil
  beforeAll(async () => {
    anvil = await startAnvil()
  })
  afterAll(() => anvil?.close())

  test('a call and a batch answer what the upstream answers, in the calls’ order', async () => {
    const client = new UpstreamClient(anvil.url)
    expect(await client.call('eth_chainId', [])).toBe('0xc4')
    const [balance, chainId, block] = await client.batch([
      { method: 'eth_getBalance', params: [DEV0, 'latest'] },
      { method: 'eth_chainId', params: [] },
      { method: 'eth_getBlockByNumber', params: ['0x0', false] },
    ])
    expect(balance).toBe(await rpc(anvil.url, 'eth_getBalance', [DEV0, 'latest']))
    expect(chainId).toBe('0xc4')
    expect(block).toEqual(await rpc(anvil.url, 'eth_getBlockByNumber', ['0x0', false]))
    expect(await client.batch([])).toEqual([])
  })

  test('the upstream’s own error reaches the caller with its code, message and data unchanged', async () => {
    const client = new UpstreamClient(anvil.url)
    const garbage = ['0x02deadbeef']
    const direct = await fetch(anvil.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_sendRawTransaction', params: garbage }),
    }).then((r) => r.json() as Promise<{ error: object }>)
    const err = await client.call('eth_sendRawTransaction', garbage).catch((e: Error) => e)
    expect(err).toBeInstanceOf(UpstreamRpcError)
    expect(toJsonRpcError(err)).toEqual(direct.error)
    // one failed item fails the batch with that item's error
    const inBatch = await client
      .batch([
        { method: 'eth_chainId', params: [] },
        { method: 'eth_sendRawTransaction', params: garbage },
      ])
      .catch((e: Error) => e)
    expect(toJsonRpcError(inBatch)).toEqual(direct.error)
  })

  test('a closed port answers UpstreamUnavailableError naming the upstream and the refusal', async () => {
    const url = `http://127.0.0.1:${await freePort()}`
    const err = await new UpstreamClient(url).call('eth_chainId', []).catch((e: Error) => e)
    expect(err).toBeInstanceOf(UpstreamUnavailableError)
    expect(toJsonRpcError(err)).toEqual({
      code: -32603,
      message: expect.stringContaining(`upstream ${url} unavailable: ECONNREFUSED`),
    })
  })

  test('a frozen upstream (SIGSTOP) hits the deadline instead of hanging, and answers again after SIGCONT', async () => {
    const client = new UpstreamClient(anvil.url, { timeoutMs: 300 })
    await freeze(anvil.pid)
    try {
      const err = await client.call('eth_blockNumber', []).catch((e: Error) => e)
      expect(err).toBeInstanceOf(UpstreamUnavailableError)
      expect((err as Error).message).toBe(`upstream ${anvil.url} unavailable: no answer within 300 ms`)
      const batch = await client.batch([{ method: 'eth_blockNumber', params: [] }]).catch((e: Error) => e)
      expect(batch).toBeInstanceOf(UpstreamUnavailableError)
    } finally {
      process.kill(anvil.pid, 'SIGCONT')
    }
    expect(await new UpstreamClient(anvil.url).call('eth_chainId', [])).toBe('0xc4')
  })

  test('an HTTP answer that is not JSON-RPC (a proxy’s 502 page) is UpstreamUnavailableError with the status', async () => {
    const server = createServer((_req, res) =>
      res.writeHead(502, { 'content-type': 'text/html' }).end('<html>Bad Gateway</html>'),
    )
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    try {
      const err = await new UpstreamClient(url).call('eth_chainId', []).catch((e: Error) => e)
      expect(err).toBeInstanceOf(UpstreamUnavailableError)
      expect((err as Error).message).toBe(`upstream ${url} unavailable: HTTP 502, not JSON: <html>Bad Gateway</html>`)
    } finally {
      server.close()
    }
  })
})
