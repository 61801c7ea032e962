/**
 * `npm run build` (and `prepare`, so `npm pack` and a git install get it): compiles the service, the
 * generated code and the client into dist/ with the same layout as the sources, so every
 * file src/assets.ts locates finds it under dist/ too, then copies the files tsc does not emit: the ajv
 * validators (already JavaScript) and what the server reads at run time. The CLI, dist/src/cli.js, is then
 * that output bundled into one file by esbuild (its dependencies stay imports from node_modules): Node 20's
 * module loader costs ~0.4 s of CPU more to load the service's ~450 modules one by one, at every start (the
 * tests start it ~40 times; Node 20 has no compile cache). The rest of dist/ stays as tsc wrote it (the
 * client entry point, the declarations).
 * `--out <dir> --no-check`: the same build elsewhere, emitted without type-checking (the tests' compiled
 * CLI, test/support/cli-build.ts, after `npm test` has type-checked the tree).
 */
import { execFileSync } from 'node:child_process'
import { cpSync, existsSync, renameSync, rmSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { build } from 'esbuild'

const root = join(import.meta.dirname, '..')
const { values } = parseArgs({ options: { out: { type: 'string' }, 'no-check': { type: 'boolean', default: false } } })
const dist = values.out ? resolve(values.out) : join(root, 'dist')
// the tests' CLI runs the JavaScript only: no declarations
const noCheck = values['no-check'] ? ['--noCheck', '--declaration', 'false'] : []

const ASSETS = [
  'generated/validators.js',
  'generated/validators.d.ts',
  'generated/openrpc.general.json', // rpc.discover on /
  'generated/openrpc.flashblocks.json', // rpc.discover on /flashblocks
  'generated/docs/index.html', // GET /docs
  'src/server/live/index.html', // GET /live
  'src/server/live/live.js',
  'src/server/live/live.css',
]

// built beside dist/ and swapped in, so a file removed from src/ does not linger in the package, and a
// process reading dist/ meanwhile (a test importing preconf-rpc/client) never sees it half written
const next = `${dist}.next-${process.pid}`
const previous = `${dist}.previous-${process.pid}`
rmSync(next, { recursive: true, force: true })
execFileSync(
  process.execPath,
  [
    join(root, 'node_modules', 'typescript', 'bin', 'tsc'),
    '-p',
    join(root, 'tsconfig.build.json'),
    '--outDir',
    next,
    ...noCheck,
  ],
  { stdio: 'inherit' },
)
for (const asset of ASSETS) cpSync(join(root, asset), join(next, asset))
const cli = join(next, 'src', 'cli.js')
await build({
  entryPoints: [cli],
  outfile: cli,
  allowOverwrite: true,
  bundle: true,
  packages: 'external',
  platform: 'node',
  format: 'esm',
  target: 'node20',
  logLevel: 'warning',
})
if (existsSync(dist)) renameSync(dist, previous)
renameSync(next, dist)
rmSync(previous, { recursive: true, force: true })
