import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { buildValidators } from '../../codegen/ajv-build.js'
import { loadDocument } from '../../codegen/load-document.js'
import type { Validator } from '../validation/check-params.js'
import { defineMethod, methodLookup, type MethodSpec } from './method-table.js'

// the codegen fixture's methods, defined as generated/methods.ts defines the project's
const { methods, schemas } = await loadDocument(join(import.meta.dirname, '..', '..', 'codegen', 'fixtures'))
const build = buildValidators(methods, schemas)
const table: Record<string, MethodSpec> = Object.fromEntries(
  methods.map((method) => {
    const validators = build.byMethod.get(method.aliasOf ?? method.name)!
    const compiled = (name: string) => build.ajv.getSchema(name) as Validator
    const spec = defineMethod({
      name: method.name,
      target: method.aliasOf ?? method.name,
      paramNames: method.params.map((param) => param.name),
      requiredParams: method.params.filter((param) => param.required).length,
      endpoints: method.endpoints,
      pending: method.pending,
      extension: method.extension,
      websocketOnly: method.websocketOnly,
      devNode: method.devNode,
      paramValidators: validators.params.map(compiled),
      resultValidator: compiled(validators.result),
    })
    return [method.name, spec]
  }),
)
const lookup = methodLookup(table)
const address = '0x6aa25a6a1e9d3a0a1ea3d5f4e3c1b2a190807060'

describe('a method spec built from its definition', () => {
  test('keeps the data and leaves the validators out', () => {
    expect(Object.keys(table.eth_getBalance!).sort()).toEqual([
      'checkParams',
      'checkResult',
      'devNode',
      'endpoints',
      'extension',
      'name',
      'paramNames',
      'pending',
      'requiredParams',
      'target',
      'websocketOnly',
    ])
    expect(table.eth_getBalance).toMatchObject({
      name: 'eth_getBalance',
      paramNames: ['address', 'block'],
      requiredParams: 1,
      pending: true,
    })
  })

  test("checks params positionally with geth's wording", () => {
    const spec = table.eth_getBalance!
    expect(spec.checkParams([address, 'pending'])).toBeUndefined()
    expect(spec.checkParams([])).toBe('missing value for required argument 0 (address)')
    expect(spec.checkParams([address, 'latest', 1])).toBe('too many arguments, want at most 2')
    expect(spec.checkParams(['0x12'])).toMatch(/^invalid argument 0 \(address\): /)
  })

  test('checks a result against the result schema', () => {
    expect(table.eth_chainId!.checkResult('0xc4')).toBe(true)
    expect(table.eth_chainId!.checkResult(196)).toBe(false)
  })
})

describe('looking a method up by endpoint', () => {
  test('an alias is found where it is served and names its target', () => {
    expect(lookup('general', 'eth_getTransactionbyBlockNumberAndIndex')?.target).toBe(
      'eth_getTransactionByBlockNumberAndIndex',
    )
    expect(lookup('flashblocks', 'eth_getTransactionbyBlockNumberAndIndex')).toBeUndefined()
  })

  test('a flashblocks-only method is absent from the general endpoint', () => {
    expect(lookup('general', 'op_supportedCapabilities')).toBeUndefined()
    expect(lookup('flashblocks', 'op_supportedCapabilities')).toBe(table.op_supportedCapabilities)
  })

  test('names of object members are not methods', () => {
    for (const name of ['toString', 'constructor', '__proto__', 'hasOwnProperty'])
      expect(lookup('general', name), name).toBeUndefined()
  })
})
