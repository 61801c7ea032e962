import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { methodTable } from '../../generated/methods.js'
import { MAX_BODY_BYTES } from '../../src/limits.js'
import { post } from '../support/rpc.js'
import { createTestApp } from '../support/test-app.js'

let app: FastifyInstance

beforeAll(async () => {
  app = await createTestApp()
})

afterAll(() => app.close())

const chainIdCall = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] })

describe('content types', () => {
  test('a non-JSON content type is HTTP 415 with a JSON-RPC error body', async () => {
    const response = await post(app, chainIdCall, { headers: { 'content-type': 'text/plain' } })
    expect(response.status).toBe(415)
    expect(response.headers['content-type']).toMatch(/^application\/json/)
    expect(response.json).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: 'invalid content type, only application/json is supported' },
    })
  })

  test('a form post (curl -d without -H) is 415', async () => {
    const response = await post(app, chainIdCall, {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    })
    expect(response.status).toBe(415)
  })

  test.each([
    'application/json',
    'application/json; charset=utf-8',
    'Application/JSON',
    'application/json-rpc',
    'application/jsonrequest',
  ])('%s is accepted', async (contentType) => {
    const response = await post(app, chainIdCall, { headers: { 'content-type': contentType } })
    expect(response.json).toEqual({ jsonrpc: '2.0', id: 1, result: '0xc4' })
  })

  test('a request without a content type is read as JSON, as geth does', async () => {
    const response = await post(app, chainIdCall, { headers: { 'content-type': undefined } })
    expect(response.json.result).toBe('0xc4')
  })
})

describe('body size', () => {
  test('a body over 5 MiB is HTTP 413 with a JSON-RPC error body', async () => {
    const padding = 'x'.repeat(MAX_BODY_BYTES)
    const payload = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'web3_sha3', params: [padding] })
    const response = await post(app, payload)
    expect(response.status).toBe(413)
    expect(response.json).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: expect.stringContaining('too large') },
    })
  })

  test('a body just under the limit is read', async () => {
    const payload = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }).padEnd(
      MAX_BODY_BYTES - 10,
      ' ',
    )
    const response = await post(app, payload)
    expect(response.status).toBe(200)
    expect(response.json.result).toBe('0xc4')
  })
})

describe('GET on an endpoint', () => {
  test.each([
    ['/', 'general'],
    ['/flashblocks', 'flashblocks'],
  ] as const)('GET %s describes the %s endpoint and counts the methods it serves', async (url, endpoint) => {
    const response = await app.inject({ method: 'GET', url })
    expect(response.statusCode).toBe(200)
    const description = response.json()
    expect(description).toMatchObject({
      name: 'preconf-rpc',
      version: expect.stringMatching(/^\d+\.\d+\.\d+/),
      endpoint,
      chainId: 196,
      network: 'mainnet',
    })
    expect(description.methods).toBe(
      Object.values(methodTable).filter((spec) => spec.endpoints.includes(endpoint)).length,
    )
    expect(description.links).toMatchObject({ general: '/', flashblocks: '/flashblocks' })
  })
})

describe('paths and CORS', () => {
  test('a trailing slash reaches the same endpoint', async () => {
    const response = await post(app, chainIdCall, { path: '/flashblocks/' })
    expect(response.json.result).toBe('0xc4')
  })

  test('an unknown path is 404 with a JSON-RPC error body', async () => {
    const response = await post(app, chainIdCall, { path: '/nope' })
    expect(response.status).toBe(404)
    expect(response.json).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } })
  })

  test('a browser preflight from any origin is allowed', async () => {
    const response = await app.inject({
      method: 'OPTIONS',
      url: '/flashblocks',
      headers: {
        origin: 'https://dapp.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
    })
    expect(response.statusCode).toBe(204)
    expect(response.headers['access-control-allow-origin']).toBe('*')
    expect(String(response.headers['access-control-allow-methods'])).toContain('POST')
    expect(String(response.headers['access-control-allow-headers']).toLowerCase()).toContain('content-type')
  })

  test('a cross-origin POST reply carries Access-Control-Allow-Origin', async () => {
    const response = await post(app, chainIdCall, { headers: { origin: 'https://dapp.example' } })
    expect(response.headers['access-control-allow-origin']).toBe('*')
  })
})
