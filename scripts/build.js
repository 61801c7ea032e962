/**
 * `npm run build` (and `prepare`, so `npm pack` and a git install get it): compiles the service, the
 * generated code and the client into dist/ with the same layout as the sources, so every
 * `new URL('../../generated/…', import.meta.url)` in src/ finds its file under dist/ too, then copies the
 * files tsc does not emit: the ajv validators (already JavaScript) and what the server reads at run time.
 */
import { execFileSync } from 'node:child_process'
import { cpSync, rmSync } from 'node:fs'
import { join } from 'node:path'

const root = join(import.meta.dirname, '..')
const dist = join(root, 'dist')

const ASSETS = [
  'generated/validators.js',
  'generated/validators.d.ts',
  'generated/openrpc.general.json', // rpc.discover on /
  'generated/openrpc.flashblocks.json', // rpc.discover on /flashblocks
  'generated/docs/index.html', // GET /docs
]

// a file removed from src/ must not linger in the package
rmSync(dist, { recursive: true, force: true })
execFileSync(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(root, 'tsconfig.build.json')], { stdio: 'inherit' })
for (const asset of ASSETS) cpSync(join(root, asset), join(dist, asset))
