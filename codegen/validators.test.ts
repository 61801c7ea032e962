import { join } from 'node:path'
import { beforeAll, describe, expect, test } from 'vitest'
import { methodTable, type MethodName } from '../generated/methods.js'
import { loadDocument } from './load-document.js'
import type { MethodModel } from './model.js'

// the checks the service runs: generated/validators.js through generated/methods.ts
const check = (method: MethodName, params: unknown[]) => methodTable[method].checkParams(params)
const address = '0x6AA25a6a1E9d3a0a1ea3d5F4e3c1b2a190807060'
let methods: MethodModel[] = []

beforeAll(async () => {
  methods = (await loadDocument(join(import.meta.dirname, '..', 'openrpc'))).methods
})

function specOf(method: MethodModel) {
  return methodTable[method.name as MethodName]
}

describe('the generated param and result checks', () => {
  test('every example in the document passes its own param and result checks', () => {
    let checked = 0
    for (const method of methods) {
      for (const example of method.examples) {
        const where = `${method.name} example "${example.name}"`
        expect(specOf(method).checkParams(example.params.map((p) => p.value)), where).toBeUndefined()
        if (example.result) expect(specOf(method).checkResult(example.result.value), where).toBe(true)
        checked++
      }
    }
    expect(checked).toBeGreaterThanOrEqual(methods.length)
  })

  test('every method accepts null for each trailing optional param of its example', () => {
    for (const method of methods) {
      const spec = specOf(method)
      const given = method.examples[0]!.params.map((p) => p.value)
      const padded = spec.paramNames.map((_, i) => (i < given.length ? given[i] : null))
      expect(spec.checkParams(padded), method.name).toBeUndefined()
    }
  })

  test('every method refuses one param more than it declares', () => {
    for (const method of methods) {
      const spec = specOf(method)
      const params = [...spec.paramNames.map(() => null), null]
      expect(spec.checkParams(params), method.name).toBe(`too many arguments, want at most ${spec.paramNames.length}`)
    }
  })

  test('every method with required params names the first one missing', () => {
    for (const method of methods) {
      const spec = specOf(method)
      if (spec.requiredParams === 0) continue
      const given = method.examples[0]!.params.map((p) => p.value).slice(0, spec.requiredParams - 1)
      const last = spec.requiredParams - 1
      expect(spec.checkParams(given), method.name).toBe(
        `missing value for required argument ${last} (${spec.paramNames[last]})`,
      )
    }
  })

  test('accepts a checksummed address and refuses a short one', () => {
    expect(check('eth_getBalance', [address, 'latest'])).toBeUndefined()
    expect(check('eth_getBalance', ['0x12', 'latest'])).toMatch(
      /^invalid argument 0 \(address\): expected .*address.*, got "0x12"$/,
    )
  })

  test('refuses a quantity with leading zeros', () => {
    expect(check('eth_getBalance', [address, '0x01'])).toBe(
      'invalid argument 1 (block): hex quantity has leading zeros',
    )
    expect(check('eth_getTransactionByBlockNumberAndIndex', ['latest', '0x00'])).toMatch(
      /^invalid argument 1 \(\w+\): hex quantity has leading zeros$/,
    )
    expect(check('eth_getBlockByNumber', ['0x0', false])).toBeUndefined()
  })

  test('refuses odd-length hex data', () => {
    expect(check('eth_sendRawTransaction', ['0xabc'])).toMatch(
      /^invalid argument 0 \(\w+\): hex string has odd length$/,
    )
  })

  test('refuses a wrong type, saying which type it got', () => {
    expect(check('eth_getBlockByNumber', ['latest', 'true'])).toBe(
      'invalid argument 1 (hydrated): expected boolean, got string',
    )
    expect(check('eth_getBalance', [42, 'latest'])).toMatch(/^invalid argument 0 \(address\): expected .*, got number$/)
  })

  test('reports a number out of range with its bound', () => {
    expect(check('eth_feeHistory', ['0x5', 'latest', [25, 101]])).toMatch(
      /^invalid argument 2 \(\w+\): item \[1\]: expected a number at most 100, got 101$/,
    )
  })

  test('names the field of an EIP-1898 block object', () => {
    expect(check('eth_getBalance', [address, { blockHash: '0x12' }])).toMatch(
      /^invalid argument 1 \(block\): field "blockHash": /,
    )
  })

  test('an alias checks params exactly like its target', () => {
    const alias = methodTable.eth_getTransactionbyBlockNumberAndIndex
    expect(alias.target).toBe('eth_getTransactionByBlockNumberAndIndex')
    expect(alias.checkParams(['pending', '0x01'])).toBe(
      methodTable.eth_getTransactionByBlockNumberAndIndex.checkParams(['pending', '0x01']),
    )
  })
})

describe('block tags, answered before the union runs', () => {
  test('a tag passes the generated check and a refusal right after one is worded as before', () => {
    for (const tag of ['latest', 'pending', 'safe', 'finalized', 'earliest']) {
      expect(check('eth_getBalance', [address, tag])).toBeUndefined()
      expect(check('eth_getBlockByNumber', [tag, false])).toBeUndefined()
    }
    expect(check('eth_getBlockByNumber', ['0x10', false])).toBeUndefined()
    expect(check('eth_getBlockByNumber', ['lates', false])).toBe(
      'invalid argument 0 (block): expected a block number (hex quantity) or a block tag, got "lates"',
    )
    expect(check('eth_getBlockByNumber', ['0x010', false])).toBe(
      'invalid argument 0 (block): hex quantity has leading zeros',
    )
    expect(check('eth_getBalance', [address, 'Latest'])).toMatch(
      /^invalid argument 1 \(block\): expected a block number, tag or hash/,
    )
  })
})
