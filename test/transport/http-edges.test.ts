import { type IncomingMessage, request as httpRequest } from 'node:http'
import { connect } from 'node:net'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { MAX_BODY_BYTES } from '../../src/limits.js'
import { startService, type RunningService } from '../../src/service.js'
import { post as postTo } from '../support/rpc.js'
import { nextEvent } from '../support/wait-for.js'

let service: RunningService

beforeAll(async () => {
  service = await startService({ port: 0, quiet: true })
})

afterAll(() => service?.close())

const post = (body: string) => postTo(service.url, body)

test('a body over 5 MiB sent over a real socket gets HTTP 413 and a JSON-RPC error, not a reset', async () => {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'web3_sha3',
    params: [`0x${'ab'.repeat(MAX_BODY_BYTES / 2)}`],
  })
  const response = await post(body)
  expect(response.status).toBe(413)
  expect(response.json).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } })
})

/** POSTs a body without Content-Length, each piece a chunk of its own (and a 'data' event of its own on the server). */
function postInChunks(pieces: Iterable<string | Uint8Array>): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(service.url, { method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => (text += chunk))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }))
    })
    // the server may close the connection before the client has written everything (a refused body)
    req.on('error', (err) => (req.writableEnded ? undefined : reject(err)))
    for (const piece of pieces) req.write(piece)
    req.end()
  })
}

test('a chunked body that grows past 5 MiB gets HTTP 413 and a JSON-RPC error once the limit is crossed', async () => {
  // no Content-Length: the limit can only be found while reading
  const chunk = ' '.repeat(1024 * 1024)
  const { status, text } = await postInChunks(Array.from({ length: MAX_BODY_BYTES / chunk.length + 1 }, () => chunk))
  expect(status).toBe(413)
  expect(JSON.parse(text)).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } })
})

test('a body sent in several chunks, one character split between two, is read as one text', async () => {
  const bytes = Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: 'réponse', method: 'eth_chainId', params: [] }))
  const split = bytes.indexOf(0xc3) + 1 // between the two bytes of é
  const { status, text } = await postInChunks([bytes.subarray(0, 5), bytes.subarray(5, split), bytes.subarray(split)])
  expect(status).toBe(200)
  expect(JSON.parse(text)).toEqual({ jsonrpc: '2.0', id: 'réponse', result: '0xc4' })
})

test('a client that goes away in the middle of its body leaves the server serving', async () => {
  const arrived = nextEvent<[IncomingMessage]>(service.app.server, 'request')
  const socket = connect(Number(new URL(service.url).port), '127.0.0.1')
  socket.on('error', () => {})
  socket.write('POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"jsonrpc":')
  const [request] = await arrived
  const closed = nextEvent(request, 'close')
  socket.destroy()
  await closed
  const next = await post(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'eth_chainId', params: [] }))
  expect(next.json).toEqual({ jsonrpc: '2.0', id: 2, result: '0xc4' })
})

test('a 4 MB parameter is served', async () => {
  const response = await post(
    JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'web3_sha3', params: [`0x${'ab'.repeat(2 * 1024 * 1024)}`] }),
  )
  expect(response.status).toBe(200)
  expect(response.json.result).toMatch(/^0x[0-9a-f]{64}$/)
})

test('deeply nested JSON is answered with an error and the server keeps serving', async () => {
  const response = await post(`${'['.repeat(200_000)}${']'.repeat(200_000)}`)
  expect(response.status).toBe(200)
  expect(response.json).toEqual([{ jsonrpc: '2.0', id: null, error: { code: -32600, message: expect.any(String) } }])
  const next = await post(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'eth_chainId', params: [] }))
  expect(next.json).toEqual({ jsonrpc: '2.0', id: 2, result: '0xc4' })
})

test('a __proto__ member in the request changes nothing', async () => {
  const response = await post(
    '{"jsonrpc":"2.0","id":3,"method":"eth_chainId","params":[],"__proto__":{"method":"eth_nope"}}',
  )
  expect(response.json).toEqual({ jsonrpc: '2.0', id: 3, result: '0xc4' })
})

test('a method other than GET or POST on an endpoint is 404 with a JSON-RPC error body', async () => {
  const response = await fetch(service.url, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  })
  expect(response.status).toBe(404)
  expect(await response.json()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } })
})
