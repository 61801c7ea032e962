/**
 * execution-apis' own OpenRPC document, built from its `src/` YAML as its tools/specgen builds
 * refs-openrpc.json: component schemas from `schemas/` and `engine/openrpc/schemas/`, methods from `eth/`,
 * `debug/`, `txpool/`, `engine/openrpc/methods/` and `testing/`, each method's `error-groups` resolved into
 * its `errors` (an inline error keeps its code; a group's error with that code is left out), `$ref`s kept.
 * It is written in the layout codegen reads (base.yaml, methods/, schemas/), one file per source file.
 *
 * The sources are two fixture folders of the same execution-apis commit: test/fixtures/rpc-compat/spec (the
 * part the rpc-compat runner reads) and test/fixtures/execution-apis (engine and error groups).
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { dump, load } from 'js-yaml'

const fixtures = join(import.meta.dirname, '..', 'fixtures')
const specDir = join(fixtures, 'rpc-compat', 'spec')
const extraDir = join(fixtures, 'execution-apis')

/** tools/specgen's base-doc.json: the document's root fields. */
const base = {
  openrpc: '1.4.1',
  info: {
    title: 'Ethereum JSON-RPC Specification',
    description: 'A specification of the standard interface for Ethereum clients.',
    license: { name: 'CC0-1.0', url: 'https://creativecommons.org/publicdomain/zero/1.0/legalcode' },
    version: '0.0.0',
  },
}

const schemaFolders = [join(specDir, 'schemas'), join(extraDir, 'engine', 'openrpc', 'schemas')]
const methodFolders = ['eth', 'debug', 'txpool', 'testing']
  .map((folder) => join(specDir, folder))
  .concat(join(extraDir, 'engine', 'openrpc', 'methods'))

type ErrorObject = { code: number; message: string; data?: unknown }
type Method = { name: string; errors?: ErrorObject[]; 'error-groups'?: { $ref: string }[] } & Record<string, unknown>

function yamlFiles(dir: string): string[] {
  return readdirSync(dir)
    .filter((file) => file.endsWith('.yaml'))
    .sort()
}

function readYaml(path: string): unknown {
  return load(readFileSync(path, 'utf8'))
}

function errorGroups(): Map<string, ErrorObject[]> {
  const groups = new Map<string, ErrorObject[]>()
  const dir = join(extraDir, 'error-groups')
  for (const file of yamlFiles(dir)) {
    const map = readYaml(join(dir, file)) as Record<string, { errors: ErrorObject[] }>
    for (const [name, group] of Object.entries(map)) groups.set(name, group.errors)
  }
  return groups
}

function resolveErrorGroups(method: Method, groups: Map<string, ErrorObject[]>): Method {
  const refs = method['error-groups']
  if (!refs) return method
  const { 'error-groups': _refs, ...rest } = method
  const errors = [...(method.errors ?? [])]
  const inline = new Set(errors.map((error) => error.code))
  for (const { $ref } of refs) {
    const group = groups.get($ref.replace('#/components/error-groups/', ''))
    if (!group) throw new Error(`${method.name}: no error group ${$ref}`)
    for (const { code, message, data } of group)
      if (!inline.has(code)) errors.push(data === undefined ? { code, message } : { code, message, data })
  }
  return { ...rest, errors }
}

/** Folder names become file-name prefixes: eth/block.yaml and engine/openrpc/methods/blob.yaml stay apart. */
function prefixOf(folder: string): string {
  return folder.slice(fixtures.length + 1).replace(/[\\/]/g, '-')
}

/** Writes the document into `out` (which must not exist yet); returns its method names. */
export function writeExecutionApisDocument(out: string): string[] {
  mkdirSync(join(out, 'methods'), { recursive: true })
  mkdirSync(join(out, 'schemas'))
  writeFileSync(join(out, 'base.yaml'), dump(base))
  for (const folder of schemaFolders)
    for (const file of yamlFiles(folder))
      writeFileSync(join(out, 'schemas', `${prefixOf(folder)}-${file}`), readFileSync(join(folder, file)))
  const groups = errorGroups()
  const names: string[] = []
  for (const folder of methodFolders) {
    for (const file of yamlFiles(folder)) {
      const methods = (readYaml(join(folder, file)) as Method[]).map((method) => resolveErrorGroups(method, groups))
      names.push(...methods.map((method) => method.name))
      writeFileSync(join(out, 'methods', `${prefixOf(folder)}-${file}`), dump(methods, { lineWidth: -1 }))
    }
  }
  return names.sort()
}
