/**
 * `npm run generate`: openrpc/*.yaml -> generated/. Options: `--openrpc DIR` (default openrpc/) and
 * `--out DIR` (default generated/), so tests can generate a fixture into a temporary folder, and
 * `--foreign` for a document written elsewhere: only what OpenRPC and the generators need is checked, not
 * the project's house rules (codegen/check-house-rules.ts).
 * A broken document exits 1 with every problem listed; nothing is written then.
 */
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs'
import { dirname, isAbsolute, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { buildValidators } from './ajv-build.js'
import { emitClient } from './emit-client.js'
import { emitConformance } from './emit-conformance.js'
import { emitDocs } from './emit-docs.js'
import { emitDocuments } from './emit-documents.js'
import { emitMethods } from './emit-methods.js'
import { emitTypes } from './emit-types.js'
import { emitValidators } from './emit-validators.js'
import { DocumentError, loadDocument } from './load-document.js'
import type { LoadOptions } from './model.js'
import { createProject, type GeneratedFile } from './ts-project.js'

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..')

/** `openrpc/` for the project's own document; the header names the source without machine paths. */
function sourceLabel(openrpcDir: string): string {
  const path = relative(repoRoot, openrpcDir).split('\\').join('/')
  return path === '' || path.startsWith('..') || isAbsolute(path) ? 'an OpenRPC document' : `${path}/`
}

/** The files, and the document's warnings (see LoadedDocument). */
export async function generate(
  openrpcDir: string,
  options: LoadOptions = { houseRules: true },
): Promise<{ files: GeneratedFile[]; warnings: string[] }> {
  const loaded = await loadDocument(openrpcDir, options)
  const source = sourceLabel(openrpcDir)
  const build = buildValidators(loaded.methods, loaded.schemas)
  const project = createProject()
  const files = [
    emitTypes(project, loaded, source),
    emitMethods(project, loaded, build, source),
    ...emitValidators(project, build, source),
    emitClient(project, loaded, source),
    ...emitConformance(project, loaded, source),
    ...emitDocuments(loaded, source),
    ...emitDocs(loaded, source),
  ].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
  return { files, warnings: loaded.warnings }
}

/** Writes the files, leaving unchanged ones untouched; returns the paths that changed. */
export function writeFiles(outDir: string, files: GeneratedFile[]): string[] {
  mkdirSync(outDir, { recursive: true })
  const changed: string[] = []
  for (const file of files) {
    const path = join(outDir, file.path)
    mkdirSync(dirname(path), { recursive: true })
    if (existsSync(path) && readFileSync(path, 'utf8') === file.text) continue
    writeFileSync(path, file.text)
    changed.push(file.path)
  }
  return changed
}

function option(args: string[], name: string, fallback: string): string {
  const index = args.indexOf(name)
  if (index === -1) return fallback
  const value = args[index + 1]
  if (!value || value.startsWith('--')) throw new Error(`${name} needs a folder`)
  return resolve(value)
}

async function main(args: string[]): Promise<void> {
  const openrpcDir = option(args, '--openrpc', join(repoRoot, 'openrpc'))
  const outDir = option(args, '--out', join(repoRoot, 'generated'))
  try {
    const { files, warnings } = await generate(openrpcDir, { houseRules: !args.includes('--foreign') })
    for (const warning of warnings) console.error(`warning: ${warning}`)
    const changed = writeFiles(outDir, files)
    const where = relative(process.cwd(), outDir) || '.'
    console.log(
      `generated ${files.length} files in ${where}${changed.length > 0 ? ` (changed: ${changed.join(', ')})` : ' (no changes)'}`,
    )
  } catch (err) {
    if (!(err instanceof DocumentError)) throw err
    console.error(err.message)
    process.exitCode = 1
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main(process.argv.slice(2))
