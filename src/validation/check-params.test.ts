import { join } from 'node:path'
import { beforeAll, describe, expect, test } from 'vitest'
import { buildValidators } from '../../codegen/ajv-build.js'
import { loadDocument } from '../../codegen/load-document.js'
import { paramChecker, type ParamsCheck, type Validator } from './check-params.js'

// the codegen fixture compiled with the same ajv options as generated/validators.js
const checks = new Map<string, ParamsCheck>()
const address = '0x6aa25a6a1e9d3a0a1ea3d5f4e3c1b2a190807060'

beforeAll(async () => {
  const { methods, schemas } = await loadDocument(join(import.meta.dirname, '..', '..', 'codegen', 'fixtures'))
  const build = buildValidators(methods, schemas)
  for (const method of methods) {
    const validators = build.byMethod.get(method.name)!.params.map((name) => build.ajv.getSchema(name) as Validator)
    const required = method.params.filter((p) => p.required).length
    checks.set(
      method.name,
      paramChecker(
        method.params.map((p) => p.name),
        required,
        validators,
      ),
    )
  }
})

const check = (method: string, params: unknown[]) => checks.get(method)!(params)

describe('checking positional params', () => {
  test('accepts a checksummed address and omits the optional block', () => {
    expect(check('eth_getBalance', ['0x6AA25a6a1E9d3a0a1ea3d5F4e3c1b2a190807060'])).toBeUndefined()
  })

  test('accepts null for a trailing optional param', () => {
    expect(check('eth_getBalance', [address, null])).toBeUndefined()
    expect(check('eth_getStorageAt', [address, '0x0', null])).toBeUndefined()
  })

  test('names the argument and shows the short address', () => {
    expect(check('eth_getBalance', ['0x12'])).toBe(
      'invalid argument 0 (address): expected a 20-byte hex address (0x + 40 hex digits), got "0x12"',
    )
  })

  test('reports a quantity with leading zeros, even inside a number-or-tag union', () => {
    expect(check('eth_getBalance', [address, '0x01'])).toBe(
      'invalid argument 1 (block): hex quantity has leading zeros',
    )
    expect(check('eth_getTransactionByBlockNumberAndIndex', ['latest', '0x00'])).toBe(
      'invalid argument 1 (index): hex quantity has leading zeros',
    )
  })

  test('accepts zero and a plain quantity', () => {
    expect(check('eth_getTransactionByBlockNumberAndIndex', ['0x0', '0x1b4'])).toBeUndefined()
  })

  test('reports odd-length hex data and hex without its prefix', () => {
    expect(check('eth_call', [{ input: '0xabc' }])).toBe(
      'invalid argument 0 (transaction): field "input": hex string has odd length',
    )
    expect(check('eth_getBalance', [address, '1b4'])).toBe('invalid argument 1 (block): hex string without 0x prefix')
  })

  test('reports a wrong type with the type it got', () => {
    expect(check('eth_getBlockByNumber', ['latest', 'true'])).toBe(
      'invalid argument 1 (hydrated): expected boolean, got string',
    )
    expect(check('eth_getBalance', [42])).toBe(
      'invalid argument 0 (address): expected a 20-byte hex address (0x + 40 hex digits), got number',
    )
  })

  test('reports an unknown block tag with what a block may be', () => {
    expect(check('eth_getBalance', [address, 'latests'])).toBe(
      'invalid argument 1 (block): expected a block number or tag, got "latests"',
    )
  })

  test('names the field of a nested object', () => {
    expect(check('eth_call', [{ to: '0x12' }])).toBe(
      'invalid argument 0 (transaction): field "to": expected a 20-byte hex address (0x + 40 hex digits), got "0x12"',
    )
    expect(check('eth_call', [{ to: null, gas: '0x05' }])).toBe(
      'invalid argument 0 (transaction): field "gas": hex quantity has leading zeros',
    )
    expect(check('eth_call', [{ data: '0x' }])).toBe('invalid argument 0 (transaction): unknown field "data"')
  })

  test('refuses more params than declared', () => {
    expect(check('eth_getBalance', [address, 'latest', true])).toBe('too many arguments, want at most 2')
    expect(check('eth_chainId', [1])).toBe('too many arguments, want at most 0')
  })

  test('refuses a missing or null required param', () => {
    expect(check('eth_getBalance', [])).toBe('missing value for required argument 0 (address)')
    expect(check('eth_getBlockByNumber', [null, false])).toBe('missing value for required argument 0 (block)')
    expect(check('eth_getBlockByNumber', ['latest'])).toBe('missing value for required argument 1 (hydrated)')
  })

  test('lists the allowed values of an enum', () => {
    expect(check('eth_subscribe', ['newHead'])).toBe(
      'invalid argument 0 (kind): expected one of "newHeads", "logs", "newPendingTransactions", got "newHead"',
    )
  })
})
