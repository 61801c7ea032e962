import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { validateOpenRPCDocument } from '@open-rpc/schema-utils-js'
import { dump, load } from 'js-yaml'
import { afterEach, describe, expect, test } from 'vitest'
import { DocumentError, loadDocument } from './load-document.js'

const fixture = join(import.meta.dirname, 'fixtures')
const projectDocument = join(import.meta.dirname, '..', 'openrpc')
const copies: string[] = []

afterEach(() => {
  for (const dir of copies.splice(0)) rmSync(dir, { recursive: true, force: true })
})

// biome-ignore lint/suspicious/noExplicitAny: YAML fixtures edited in place by the tests
type Method = Record<string, any>

/** A copy of the fixture with one YAML file edited. */
// biome-ignore lint/suspicious/noExplicitAny: YAML fixtures edited in place by the tests
function brokenFixture(file: string, edit: (content: any) => void): string {
  const dir = mkdtempSync(join(tmpdir(), 'openrpc-broken-'))
  copies.push(dir)
  cpSync(fixture, dir, { recursive: true })
  const content = load(readFileSync(join(dir, file), 'utf8'))
  edit(content)
  writeFileSync(join(dir, file), dump(content))
  return dir
}

function method(list: Method[], name: string): Method {
  const found = list.find((m) => m.name === name)
  if (!found) throw new Error(`fixture has no ${name}`)
  return found
}

async function problemsOf(dir: string): Promise<string> {
  const error = await loadDocument(dir).then(
    () => undefined,
    (err: unknown) => err,
  )
  expect(error).toBeInstanceOf(DocumentError)
  return (error as DocumentError).message
}

describe('loading an OpenRPC document', () => {
  test("the project's document in openrpc/ validates, with methods sorted by name", async () => {
    const { document, methods } = await loadDocument(projectDocument)
    expect(validateOpenRPCDocument(document as never)).toBe(true)
    const names = methods.map((m) => m.name)
    expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)))
  })

  test('the fixture validates and keeps every x- field', async () => {
    const { methods, schemas } = await loadDocument(fixture)
    expect(schemas.map(([name]) => name)).toContain('BlockNumberOrTag')
    const alias = methods.find((m) => m.name === 'eth_getTransactionbyBlockNumberAndIndex')
    expect(alias?.aliasOf).toBe('eth_getTransactionByBlockNumberAndIndex')
    expect(methods.find((m) => m.name === 'op_supportedCapabilities')?.endpoints).toEqual(['flashblocks'])
    expect(methods.find((m) => m.name === 'eth_subscribe')?.websocketOnly).toBe(true)
  })

  test('an unknown $ref fails naming the method and the param', async () => {
    const dir = brokenFixture('methods/eth.yaml', (list) => {
      method(list, 'eth_getBalance').params[1].schema = { $ref: '#/components/schemas/BlockNumberOrTagOrHash' }
    })
    expect(await problemsOf(dir)).toContain(
      "method eth_getBalance (methods/eth.yaml): params[1] (block).schema: unknown $ref '#/components/schemas/BlockNumberOrTagOrHash'",
    )
  })

  test('an unknown $ref inside a component schema names the schema and the property', async () => {
    const dir = brokenFixture('schemas/block.yaml', (map) => {
      map.Block.properties.miner = { $ref: '#/components/schemas/Adress' }
    })
    expect(await problemsOf(dir)).toContain(
      "schema Block: properties.miner: unknown $ref '#/components/schemas/Adress'",
    )
  })

  test('a method without x-endpoints fails naming it', async () => {
    const dir = brokenFixture('methods/op.yaml', (list) => {
      delete method(list, 'op_supportedCapabilities')['x-endpoints']
    })
    expect(await problemsOf(dir)).toContain('method op_supportedCapabilities (methods/op.yaml): x-endpoints: missing')
  })

  test('an example that contradicts its schema fails naming the example and the argument', async () => {
    const dir = brokenFixture('methods/eth.yaml', (list) => {
      method(list, 'eth_getBalance').examples[0].params[0].value = '0x12'
    })
    expect(await problemsOf(dir)).toContain(
      'method eth_getBalance (methods/eth.yaml): examples[0] "pending balance".params: invalid argument 0 (address): expected a 20-byte hex address (0x + 40 hex digits), got "0x12"',
    )
  })

  test('an example result that contradicts the result schema fails', async () => {
    const dir = brokenFixture('methods/eth.yaml', (list) => {
      method(list, 'eth_chainId').examples[0].result.value = '0x00c4'
    })
    expect(await problemsOf(dir)).toContain(
      'method eth_chainId (methods/eth.yaml): examples[0] "mainnet".result: hex quantity has leading zeros',
    )
  })

  test('a required param after an optional one fails naming both', async () => {
    const dir = brokenFixture('methods/eth.yaml', (list) => {
      const params = method(list, 'eth_getStorageAt').params
      params[1].required = false
      params[2].required = true
    })
    expect(await problemsOf(dir)).toContain(
      'method eth_getStorageAt (methods/eth.yaml): params[2] (block).required: a required param follows the optional param slot',
    )
  })

  test('a param without an explicit required flag fails, since OpenRPC would default it to optional', async () => {
    const dir = brokenFixture('methods/eth.yaml', (list) => {
      delete method(list, 'eth_getBalance').params[0].required
    })
    expect(await problemsOf(dir)).toContain(
      'method eth_getBalance (methods/eth.yaml): params[0] (address).required: expected true or false',
    )
  })

  test('a document written elsewhere loads without the house rules: free-text param names, no x-endpoints (the general endpoint), no examples', async () => {
    const dir = brokenFixture('methods/eth.yaml', (list) => {
      const balance = method(list, 'eth_getBalance')
      balance.params[0].name = 'Account address'
      delete balance.params[0].required
      delete balance['x-endpoints']
      delete balance.paramStructure
      delete balance.examples
    })
    expect(await problemsOf(dir)).toContain('method eth_getBalance (methods/eth.yaml): x-endpoints: missing')
    const { methods, warnings } = await loadDocument(dir, { houseRules: false })
    const balance = methods.find((m) => m.name === 'eth_getBalance')
    expect(balance?.endpoints).toEqual(['general'])
    expect(balance?.params[0]).toMatchObject({ name: 'Account address', required: false })
    expect(warnings).toEqual([])
  })

  test('an example that contradicts its schema is a warning in a document written elsewhere', async () => {
    const dir = brokenFixture('methods/eth.yaml', (list) => {
      method(list, 'eth_chainId').examples[0].result.value = '0x00c4'
    })
    const { warnings } = await loadDocument(dir, { houseRules: false })
    expect(warnings).toEqual([
      'method eth_chainId (methods/eth.yaml): examples[0] "mainnet".result: hex quantity has leading zeros',
    ])
  })

  test('a schema whose name TypeScript reserves fails naming it, with or without the house rules', async () => {
    const dir = brokenFixture('schemas/base.yaml', (map) => {
      map.string = { title: 'a string', description: 'a string', type: 'string' }
    })
    const error = await loadDocument(dir, { houseRules: false }).catch((err: unknown) => err)
    expect((error as DocumentError).problems).toContain(
      'schema string: the name becomes a TypeScript type, and string is reserved in TypeScript',
    )
  })

  test("a ref into a component's inside must find something there", async () => {
    const dir = brokenFixture('schemas/block.yaml', (map) => {
      map.Block.properties.miner = { $ref: '#/components/schemas/Block/properties/coinbase' }
    })
    expect(await problemsOf(dir)).toContain(
      "schema Block: properties.miner: unknown $ref '#/components/schemas/Block/properties/coinbase'",
    )
  })

  test('an alias whose params differ from its target fails', async () => {
    const dir = brokenFixture('methods/eth.yaml', (list) => {
      method(list, 'eth_getTransactionbyBlockNumberAndIndex').params[1].schema = { $ref: '#/components/schemas/Uint64' }
    })
    expect(await problemsOf(dir)).toContain(
      'method eth_getTransactionbyBlockNumberAndIndex (methods/eth.yaml): params: an alias must declare the same params as eth_getTransactionByBlockNumberAndIndex',
    )
  })

  test('a keyword draft-07 does not know fails naming where it is', async () => {
    const dir = brokenFixture('schemas/block.yaml', (map) => {
      map.CallObject.properties.to = { $ref: '#/components/schemas/Address', nullable: true }
    })
    expect(await problemsOf(dir)).toContain('schema CallObject: properties.to: unknown keyword "nullable"')
  })

  test('a field the OpenRPC metaschema refuses fails naming the method and the field', async () => {
    const dir = brokenFixture('methods/eth.yaml', (list) => {
      method(list, 'eth_chainId').tags = 'chain'
    })
    expect(await problemsOf(dir)).toMatch(/method eth_chainId \(methods\/eth\.yaml\): tags: .*\(OpenRPC metaschema\)/)
  })

  test('a schema that refers to itself without reaching a value fails instead of hanging', async () => {
    const dir = brokenFixture('schemas/block.yaml', (map) => {
      map.BlockNumberOrTag.oneOf.push({ $ref: '#/components/schemas/BlockNumberOrTag' })
    })
    expect(await problemsOf(dir)).toContain(
      'schema BlockNumberOrTag: $ref cycle BlockNumberOrTag -> BlockNumberOrTag before any value (a schema must reach a property or an item before it refers to itself)',
    )
  })

  test('a schema that recurses through items loads, its reference kept', async () => {
    const dir = brokenFixture('schemas/block.yaml', (map) => {
      map.Block.properties.uncles = { type: 'array', items: { $ref: '#/components/schemas/Block' } }
    })
    const loaded = await loadDocument(dir)
    const block = loaded.schemas.find(([name]) => name === 'Block')![1] as { properties: { uncles: unknown } }
    expect(block.properties.uncles).toEqual({ type: 'array', items: { $ref: '#/components/schemas/Block' } })
  })

  test('a method defined in two files fails naming both files', async () => {
    const dir = brokenFixture('methods/op.yaml', (list) => {
      list.push({ ...method(list, 'op_supportedCapabilities'), name: 'eth_chainId' })
    })
    expect(await problemsOf(dir)).toContain(
      'methods/op.yaml: method eth_chainId is already defined in methods/eth.yaml',
    )
  })
})
