/**
 * @ethereumjs/evm's Interpreter class, which the package does not export: reached through the package's own
 * file, for the call path's patches of its prototype (jump-analysis.ts, sync-steps.ts). Undefined if a
 * release moves it; the patches then do nothing and calls run as shipped.
 */
import { createRequire } from 'node:module'
import { pathToFileURL } from 'node:url'

const indexPath = createRequire(import.meta.url).resolve('@ethereumjs/evm')
const interpreterPath = indexPath.replace(/dist[\\/]cjs[\\/]index\.js$/, 'dist/esm/interpreter.js')

export const interpreterPrototype = (
  (await import(pathToFileURL(interpreterPath).href)) as { Interpreter?: { prototype: Record<string, unknown> } }
).Interpreter?.prototype
