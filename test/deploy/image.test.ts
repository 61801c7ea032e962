/**
 * deploy/Containerfile's image, made here as far as it can be without a container engine
 * (test/support/image-here.ts: its build stage's npm pack and npm ci --omit=dev run verbatim), then started
 * with the command lines the image and the manifests give it: the ENTRYPOINT with the image's CMD, and with
 * the sequencer's and a follower's `args` from deploy/kubernetes/. Only what names this machine changes: the
 * port (a free one), the volumes (scratch directories), the Services' host names (the local process playing
 * that workload; Redis runs with the manifest's flags too). Under Node 22, the image's, where `.ci/run`
 * installed it.
 */
import { type ChildProcess, execFile } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs'
import { rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { healthcheckCommand, instructionsOf, readContainerfile } from '../support/containerfile.js'
import { DEV_KEY_2, signTransferToBob } from '../support/dev-keys.js'
import { freePort } from '../support/free-port.js'
import { buildImageHere, type ImageHere, runEntrypoint } from '../support/image-here.js'
import { resolveService, workload } from '../support/k8s-pods.js'
import { loadKustomization } from '../support/kustomize.js'
import { nodeBinary } from '../support/packed-package.js'
import { TestRedis } from '../support/redis-server.js'
import { HAVE_REDIS_SERVER } from '../support/system-tools.js'
import { call } from '../support/rpc.js'
import { REPO_ROOT } from '../support/run-script.js'
import { until } from '../support/wait-for.js'

const run = promisify(execFile)
const CONTAINERFILE = join(REPO_ROOT, 'deploy', 'Containerfile')
const final = readContainerfile(CONTAINERFILE).at(-1)!
const only = (keyword: string) => instructionsOf(final, keyword)[0]!
const k = loadKustomization(join(REPO_ROOT, 'deploy', 'kubernetes'))
const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>
  devDependencies: Record<string, string>
}
/** The image's Node major where .ci/run installed it, else this one. */
const NODE = nodeBinary(22) ?? process.execPath

describe.skipIf(!HAVE_REDIS_SERVER)('the image, made here', () => {
  let image: ImageHere
  let redis: TestRedis
  const scratch = mkdtempSync(join(tmpdir(), 'preconf-rpc-image-run-'))
  const children: ChildProcess[] = []
  /** The local port of the process playing each workload. */
  const playing = new Map<string, number>()

  beforeAll(async () => {
    image = await buildImageHere(CONTAINERFILE)
    const redisArgs = workload(k, 'preconf-rpc-redis').containers[0]!.args!
    expect(redisArgs[0]).toBe('redis-server')
    redis = await TestRedis.start(redisArgs.slice(1))
    playing.set('preconf-rpc-redis', redis.port)
  }, 300_000)

  afterAll(async () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
    await redis?.kill()
    await image?.remove()
    await rm(scratch, { recursive: true, force: true })
  }, 60_000)

  /** A command line as it runs here: a free --port, volumes in scratch, Services' hosts the local processes. */
  async function here(args: readonly string[], volumes: Record<string, string> = {}) {
    const port = await freePort()
    const local = args.map((arg, i) => {
      if (args[i - 1] === '--port') return String(port)
      if (volumes[arg]) return volumes[arg]
      if (!/^[a-z]+:\/\//.test(arg)) return arg
      const url = new URL(arg)
      const target = resolveService(k, url.hostname, Number(url.port))
      const name = target.workloads[0]!.object.metadata.name
      const localPort = playing.get(name)
      if (localPort === undefined) throw new Error(`${arg}: nothing plays ${name} here yet`)
      return arg.replace(`//${url.host}`, `//127.0.0.1:${localPort}`)
    })
    return { args: local, port, url: `http://127.0.0.1:${port}/` }
  }

  /** Starts the image's ENTRYPOINT with `args`; resolves once GET /health answers 200. */
  async function start(args: string[], port: number) {
    const child = runEntrypoint(image, NODE, args)
    children.push(child)
    let output = ''
    child.stdout!.on('data', (chunk) => (output += chunk))
    child.stderr!.on('data', (chunk) => (output += chunk))
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
    await until(
      async () => {
        if (child.exitCode !== null) throw new Error(`exited with ${child.exitCode}:\n${output}`)
        return (await fetch(`http://127.0.0.1:${port}/health`).catch(() => undefined))?.ok === true
      },
      `${args.join(' ')} to answer GET /health`,
      120_000,
    )
    return {
      /** SIGTERM, as a pod's deletion sends it; resolves with the exit code. */
      stop: () => {
        child.kill('SIGTERM')
        return exited
      },
    }
  }

  const status = (url: string) => fetch(url).then((r) => r.status)

  test('holds the compiled package and its runtime dependencies only', () => {
    const app = image.workdir
    expect(readdirSync(app)).toEqual(expect.arrayContaining(['bin', 'dist', 'node_modules']))
    expect(existsSync(join(app, 'src'))).toBe(false)
    const devOnly = Object.keys(pkg.devDependencies).filter((name) => !(name in pkg.dependencies))
    expect(devOnly.filter((name) => existsSync(join(app, 'node_modules', name)))).toEqual([])
    for (const name of Object.keys(pkg.dependencies))
      expect(existsSync(join(app, 'node_modules', name)), name).toBe(true)
  })

  test('started with its own command line, it serves JSON-RPC with no dev accounts, keeps the chain in its volume, and passes its health check', async () => {
    const cmd = only('CMD').json!
    const dataDir = join(scratch, 'image-data')
    const { args, port, url } = await here(cmd, { [only('VOLUME').text]: dataDir })
    const service = await start(args, port)
    expect(await call(url, 'eth_chainId')).toBe('0xc4')
    expect(await call(url, 'eth_accounts')).toEqual([])
    expect(readdirSync(dataDir).length).toBeGreaterThan(0)
    const [node, ...check] = healthcheckCommand(only('HEALTHCHECK'))
    expect(node).toBe('node')
    const imagePort = cmd[cmd.indexOf('--port') + 1]
    const checkHere = check.map((arg) => arg.replace(`:${imagePort}/`, `:${port}/`))
    await expect(run(NODE, checkHere)).resolves.toBeDefined()
    expect(await service.stop()).toBe(0)
    await expect(run(NODE, checkHere)).rejects.toMatchObject({ code: 1 })
  }, 180_000)

  describe("with the manifests' args", () => {
    const sequencerContainer = workload(k, 'preconf-rpc-sequencer').containers[0]!
    const followerContainer = workload(k, 'preconf-rpc-follower').containers[0]!
    let sequencerArgs: string[]
    let sequencerUrl: string
    let sequencer: Awaited<ReturnType<typeof start>>

    beforeAll(async () => {
      const dataMount = sequencerContainer.volumeMounts.find((m: { name: string }) => m.name === 'data').mountPath
      const local = await here(sequencerContainer.args!, { [dataMount]: join(scratch, 'sequencer-data') })
      sequencerArgs = local.args
      sequencerUrl = local.url
      sequencer = await start(sequencerArgs, local.port)
      playing.set('preconf-rpc-sequencer', local.port)
    }, 180_000)

    afterAll(() => sequencer?.stop(), 30_000)

    test('the sequencer answers its probes and /metrics, closes on SIGTERM, and continues its chain from --data-dir with what it preconfirmed', async () => {
      for (const probe of ['startupProbe', 'readinessProbe', 'livenessProbe'])
        expect(await status(new URL(sequencerContainer[probe].httpGet.path, sequencerUrl).href), probe).toBe(200)
      const metrics = await fetch(new URL('/metrics', sequencerUrl))
      expect(metrics.status).toBe(200)
      expect(await metrics.text()).toMatch(/^# TYPE \w+ \w+$/m)
      // dev accounts off: nobody signs on the network's behalf
      expect(await call(sequencerUrl, 'eth_accounts')).toEqual([])

      await until(async () => BigInt(await call(sequencerUrl, 'eth_blockNumber')) >= 2n, 'two blocks', 60_000)
      // a transfer preconfirmed (on /flashblocks) right before SIGTERM: mined or not by then, it is in the chain after
      const hash = await call(sequencerUrl, 'eth_sendRawTransaction', [await signTransferToBob()])
      const flashblocks = new URL('/flashblocks', sequencerUrl).href
      await until(
        async () => (await call(flashblocks, 'eth_getTransactionReceipt', [hash])) !== null,
        'the preconfirmation',
        60_000,
      )
      const head = BigInt(await call(sequencerUrl, 'eth_blockNumber'))
      const block = await call(sequencerUrl, 'eth_getBlockByNumber', [`0x${head.toString(16)}`, false])
      expect(await sequencer.stop()).toBe(0)

      sequencer = await start(sequencerArgs, Number(new URL(sequencerUrl).port))
      const again = await call(sequencerUrl, 'eth_getBlockByNumber', [`0x${head.toString(16)}`, false])
      expect(again.hash).toBe(block.hash)
      expect(BigInt(await call(sequencerUrl, 'eth_blockNumber'))).toBeGreaterThanOrEqual(head)
      await until(
        async () => (await call(sequencerUrl, 'eth_getTransactionReceipt', [hash]))?.status === '0x1',
        'the preconfirmed transfer mined after the restart',
        60_000,
      )
    }, 180_000)

    test('a follower follows the sequencer, answers its probes, and forwards a write that it then preconfirms', async () => {
      const { args, port, url } = await here(followerContainer.args!)
      const follower = await start(args, port)
      await until(
        async () => (await status(new URL(followerContainer.readinessProbe.httpGet.path, url).href)) === 200,
        'the follower to be ready',
        120_000,
      )
      for (const probe of ['startupProbe', 'livenessProbe'])
        expect(await status(new URL(followerContainer[probe].httpGet.path, url).href), probe).toBe(200)
      expect(await status(new URL('/metrics', url).href)).toBe(200)
      expect(await call(url, 'eth_chainId')).toBe(await call(sequencerUrl, 'eth_chainId'))

      const hash = await call(url, 'eth_sendRawTransaction', [await signTransferToBob(0, DEV_KEY_2)])
      const flashblocks = new URL('/flashblocks', url).href
      await until(
        async () => (await call(flashblocks, 'eth_getTransactionReceipt', [hash])) !== null,
        'the preconfirmation on the follower',
        60_000,
      )
      await until(
        async () => (await call(sequencerUrl, 'eth_getTransactionReceipt', [hash])) !== null,
        'the receipt on the sequencer',
        60_000,
      )
      expect(await follower.stop()).toBe(0)
    }, 240_000)
  })
})
