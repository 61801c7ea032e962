/**
 * generated/validators.js (+ .d.ts): ajv standalone ESM code, one validator per param and per result
 * (aliases share their target's), so the service never compiles a schema at start-up.
 *
 * ajv's standalone ESM still loads its runtime helpers (`equal` for object enums, `ucs2length` for string
 * lengths) with `require(...)`; a `createRequire` preamble makes that work in Node ESM and under vitest alike.
 *
 * A validator whose schema is a union with finite branches (a block number or tag) answers those values from
 * its first line, before its ajv code runs (union-order.ts says why).
 */
import standalone from 'ajv/dist/standalone/index.js'
import type { Project } from 'ts-morph'
import type { ValidatorBuild } from './ajv-build.js'
import { headerLine, printSourceFile, type GeneratedFile } from './ts-project.js'

export function emitValidators(project: Project, build: ValidatorBuild, source: string): GeneratedFile[] {
  // a CommonJS module whose module.exports is the function, with itself as .default: NodeNext types see .default
  const code = standalone.default(build.ajv, build.exports)
  const body = withFiniteFirst(code.replace(/^"use strict";\n?/, ''), build.finiteFirst)
  const preamble = body.includes('require(')
    ? "import { createRequire } from 'node:module'\nconst require = createRequire(import.meta.url)\n"
    : ''
  const js = `${headerLine('emit-validators.ts', source)}\n${preamble}${body.endsWith('\n') ? body : `${body}\n`}`

  const declarations = Object.keys(build.exports).map((name) => `export declare const ${name}: Validator`)
  const dts = printSourceFile(project, 'validators.d.ts', headerLine('emit-validators.ts', source), [
    "import type { Validator } from '../src/validation/check-params.js'",
    declarations.join('\n'),
  ])
  return [{ path: 'validators.js', text: js }, dts]
}

/**
 * Each such validator's first line returns at once for its finite values: `if(data === "latest" || ...)`
 * (compared as ajv compares an enum: a string of another length is refused without reading it).
 */
function withFiniteFirst(body: string, finiteFirst: Record<string, unknown[]>): string {
  let patched = body
  for (const [name, values] of Object.entries(finiteFirst)) {
    const fn = new RegExp(`^export const ${name} = (validate\\d+);$`, 'm').exec(patched)?.[1]
    const header = fn && new RegExp(`^function ${fn}\\(data, .*\\{$`, 'm').exec(patched)
    if (!fn || !header) throw new Error(`no validator function for ${name} in ajv's standalone code`)
    const test = values.map((value) => `data === ${JSON.stringify(value)}`).join(' || ')
    const open = header.index + header[0].length
    patched = `${patched.slice(0, open)}\nif(${test}){\n${fn}.errors = null;\nreturn true;\n}${patched.slice(open)}`
  }
  return patched
}
