/**
 * The generators on a document we did not write: execution-apis' own OpenRPC document (built from its
 * src/ YAML by test/support/execution-apis-document.ts), generated without the project's house rules
 * (`--foreign`) into a scratch project beside src/, then type-checked and exercised.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Ajv2019 } from 'ajv/dist/2019.js'
import { load } from 'js-yaml'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { writeExecutionApisDocument } from '../test/support/execution-apis-document.js'
import { scratchProject } from '../test/support/scratch-project.js'

const root = join(import.meta.dirname, '..')
const bin = (name: string) => join(root, 'node_modules', '.bin', name)
const scratch = mkdtempSync(join(tmpdir(), 'foreign-document-'))
const documentDir = join(scratch, 'openrpc')
const generated = join(scratch, 'generated')

afterAll(() => rmSync(scratch, { recursive: true, force: true }))

type Example = { name: string; params: { value: unknown }[]; result?: { value: unknown } }
type Method = { name: string; params: { schema: object }[]; result: { schema: object }; examples?: Example[] }
type Validator = (value: unknown) => boolean
type Spec = { checkParams(params: unknown[]): string | undefined; checkResult(result: unknown): boolean }

let methodNames: string[]
let warnings: string[]

beforeAll(() => {
  methodNames = writeExecutionApisDocument(documentDir)
  scratchProject(scratch, ['*.ts', 'generated'])
  // `npm run generate`'s entry point as a separate process, like CI runs it
  const run = spawnSync(
    bin('tsx'),
    [join(root, 'codegen', 'index.ts'), '--foreign', '--openrpc', documentDir, '--out', generated],
    { cwd: root, encoding: 'utf8' },
  )
  if (run.status !== 0) throw new Error(`generation failed:\n${run.stderr}`)
  warnings = run.stderr.split('\n').filter((line) => line.startsWith('warning: '))
}, 120_000)

/** Every method of the document as written, by name. */
function documentMethods(): Map<string, Method> {
  const methods = new Map<string, Method>()
  for (const file of readdirSync(join(documentDir, 'methods')))
    for (const method of load(readFileSync(join(documentDir, 'methods', file), 'utf8')) as Method[])
      methods.set(method.name, method)
  return methods
}

/**
 * execution-apis' own reading of its schemas: JSON Schema 2019-09, as its speccheck and hive validate,
 * with an ajv compiled here and independent of the generators.
 */
function ownDraftValidator(): (schema: object) => Validator {
  const schemas: Record<string, unknown> = {}
  for (const file of readdirSync(join(documentDir, 'schemas')))
    Object.assign(schemas, load(readFileSync(join(documentDir, 'schemas', file), 'utf8')))
  const ajv = new Ajv2019({ strict: false, validateFormats: false })
  return (schema) => ajv.compile({ ...schema, components: { schemas } })
}

describe("generating from execution-apis' own OpenRPC document", () => {
  test('the generated types, method table, validators and client type-check, with refs into a schema typed as that part', () => {
    // compile-time facts about the types: a wrong one is a type error, an unneeded expect-error too
    writeFileSync(
      join(scratch, 'type-facts.ts'),
      `import type { Methods } from './generated/methods.js'
import type { ExecutionPayloadV2, RestrictedPayloadStatusV1, hash32 } from './generated/types.js'
import type { RpcClient } from './generated/client.js'
// ExecutionPayloadV2.parentHash is a $ref to ExecutionPayloadV1/properties/parentHash
export const parent: hash32 = null as unknown as ExecutionPayloadV2['parentHash']
// a $ref with an enum beside it narrows: RestrictedPayloadStatusV1.status excludes ACCEPTED
// @ts-expect-error
export const restricted: RestrictedPayloadStatusV1['status'] = 'ACCEPTED'
// free-text param names ("Block hash") become tuple labels; the client takes the same positional params
export const call = (client: RpcClient, hash: hash32): Promise<Methods['eth_getBlockByHash']['result']> =>
  client.eth_getBlockByHash(hash, false)
`,
    )
    expect(() =>
      execFileSync(bin('tsc'), ['--noEmit', '-p', join(scratch, 'tsconfig.json')], { stdio: 'pipe' }),
    ).not.toThrow()
  })

  test('every component schema becomes a type, unknown only where the document leaves the value open', () => {
    const schemas: Record<string, unknown> = {}
    for (const file of readdirSync(join(documentDir, 'schemas')))
      Object.assign(schemas, load(readFileSync(join(documentDir, 'schemas', file), 'utf8')))
    const types = readFileSync(join(generated, 'types.ts'), 'utf8')
    const exported = [...types.matchAll(/^export type (\w+) =/gm)].map((match) => match[1])
    expect(exported.sort()).toEqual(Object.keys(schemas).sort())
    // BlockStateCalls is `type: array` with `properties` but no `items`; tracerConfig is any object
    expect(types.split('\n').filter((line) => line.includes('unknown'))).toEqual([
      'export type BlockStateCalls = unknown[]',
      '  tracerConfig?: Record<string, unknown>',
    ])
  })

  test('every method of the document is in the generated method table, served on the general endpoint', async () => {
    const { methodTable, lookupMethod } = await import(join(generated, 'methods.ts'))
    expect(methodNames.length).toBeGreaterThan(80)
    expect(Object.keys(methodTable).sort()).toEqual(methodNames)
    for (const name of methodNames) expect(lookupMethod('general', name)?.name, name).toBe(name)
  })

  test("the generated method table accepts exactly the examples execution-apis' own schema reading accepts", async () => {
    const { methodTable } = (await import(join(generated, 'methods.ts'))) as { methodTable: Record<string, Spec> }
    const ownValidator = ownDraftValidator()
    const accepted: string[] = []
    const rejected: string[] = []
    const record = (at: string, ours: boolean, own: boolean) => {
      expect(ours, at).toBe(own)
      ;(own ? accepted : rejected).push(at)
    }
    for (const [name, method] of documentMethods()) {
      const spec = methodTable[name]!
      const ownParams = method.params.map((param) => ownValidator(param.schema))
      const ownResult = ownValidator(method.result.schema)
      ;(method.examples ?? []).forEach((example, i) => {
        const params = example.params.map((param) => param.value)
        record(
          `${name} ${i} params`,
          spec.checkParams(params) === undefined,
          params.every((v, j) => ownParams[j]!(v)),
        )
        if (example.result)
          record(`${name} ${i} result`, spec.checkResult(example.result.value), ownResult(example.result.value))
      })
    }
    // at execution-apis 033ca6e, 36 example params or results contradict their own schemas (uppercase hex, a null
    // validationError, no blockTimestamp, odd-length payload ids, ...): generated all the same, and reported
    expect(accepted.length).toBeGreaterThan(120)
    const warned = warnings.map((line) =>
      /^warning: method (\S+) .*?examples\[(\d+)\][^.]*\.(params|result):/.exec(line)!.slice(1, 4).join(' '),
    )
    expect(warned.sort()).toEqual(rejected.sort())
  })
})
