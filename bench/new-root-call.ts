/**
 * What a new state root costs the first eth_call at it, in process: a chain with TestToken, then, many times,
 * token transfers built into a new flashblock (the block's last one sealed instead), and at the new
 * root (the flashblocks endpoint's pending block, or the new latest) a first balanceOf and then a second one.
 * Each call has its own trailing word (the ABI decoder ignores it), so the call memo answers neither and both
 * do the same state reads and EVM work: what differs is what a root costs the first read at it. The event loop
 * turns before each transfer (the state snapshot is made and moved on immediates), not between the new root
 * and its first call: a request read in the same turn as the flashblock comes first. Per call, the
 * process's CPU (getrusage) and wall µs, medians and means; with `--alloc`, the bytes V8's sampling heap
 * profiler counts instead (collected objects included), which do not move with the machine's load.
 *
 * cold-parts.ts measures a fresh process's first calls, call-cpu.ts the steady state; this one sits between.
 *
 *   npx tsx bench/new-root-call.ts [--roots 400] [--rounds 3] [--per-block 10] [--txs 1] [--baseline DIR] [--alloc]
 *
 * `--baseline DIR`: another checkout (`git worktree add DIR <commit>`) measured in the same run, alternating
 * round by round with this one; each round is a process of its own, which loads that checkout's src/.
 */
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { Session } from 'node:inspector'
import { parseArgs } from 'node:util'
import { encodeDeployData, encodeFunctionData, getContractAddress, hexToBytes, type Hex } from 'viem'
import { quartiles } from './lib.js'

const { values: args } = parseArgs({
  options: {
    roots: { type: 'string', default: '400' },
    /** Flashblocks a block: 10 is a 2 s block of 200 ms flashblocks. */
    'per-block': { type: 'string', default: '10' },
    /** Token transfers (each to a new holder) in each flashblock. */
    txs: { type: 'string', default: '1' },
    rounds: { type: 'string', default: '3' },
    baseline: { type: 'string' },
    alloc: { type: 'boolean', default: false },
    /** A round's process: the checkout whose src/ it loads. */
    checkout: { type: 'string' },
  },
})

type Figures = Record<'flashblock' | 'block', { first: number[]; later: number[] }>

if (args.checkout) {
  console.log(JSON.stringify(await round(args.checkout)))
  process.exit(0)
}

const here = new URL('..', import.meta.url).pathname
const checkouts = [{ label: 'ours', dir: here }]
if (args.baseline) checkouts.unshift({ label: 'before', dir: args.baseline })
const loadavg = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')
const unit = args.alloc ? 'bytes' : 'CPU µs'
const shape = `${args['per-block']} flashblocks a block, ${args.txs} transfers each`
console.log(`load average before: ${loadavg()}; ${args.roots} new roots a round (${shape}), ${unit} per call`)
const all = new Map(checkouts.map((c) => [c.label, [] as Figures[]]))
for (let r = 0; r < Number(args.rounds); r++)
  for (const c of r % 2 ? [...checkouts].reverse() : checkouts) {
    const flags = ['--roots', args.roots!, '--per-block', args['per-block']!, '--txs', args.txs!, '--checkout', c.dir]
    if (args.alloc) flags.push('--alloc')
    const out = execFileSync(process.execPath, ['--import', 'tsx', new URL(import.meta.url).pathname, ...flags], {
      cwd: c.dir,
      encoding: 'utf8',
      maxBuffer: 1 << 28,
    })
    all.get(c.label)!.push(JSON.parse(out.trim().split('\n').pop()!) as Figures)
  }
const cell = (values: number[]) => {
  const [q1, median, q3] = quartiles(values)
  const mean = values.reduce((a, b) => a + b, 0) / values.length
  return `${median.toFixed(0)} [${q1.toFixed(0)}-${q3.toFixed(0)}], mean ${mean.toFixed(0)}`
}
console.log(`| checkout | root | first call, median [quartiles], mean | later call | first − later (medians) |`)
console.log('|---|---|---|---|---|')
for (const [label, rounds] of all)
  for (const kind of ['flashblock', 'block'] as const) {
    const first = rounds.flatMap((f) => f[kind].first)
    const later = rounds.flatMap((f) => f[kind].later)
    const extra = quartiles(first)[1] - quartiles(later)[1]
    console.log(`| ${label} | ${kind} | ${cell(first)} | ${cell(later)} | ${extra.toFixed(0)} |`)
  }
console.log(`load average after: ${loadavg()}`)

/** One round in this process, on `dir`'s src/. */
async function round(dir: string): Promise<Figures> {
  const { createChain } = await import(`${dir}/src/chain/create-chain.js`)
  const { defaultConfig } = await import(`${dir}/src/config.js`)
  const { installEvmPatches } = await import(`${dir}/src/evm/patches/install.js`)
  const { signTx } = await import(`${dir}/test/support/sign-tx.js`)
  const { testToken } = await import(`${dir}/test/support/fixtures.js`)
  await installEvmPatches()
  const chain = await createChain(defaultConfig({ quiet: true }))
  let nonce = 0
  const send = async (to: Uint8Array | null, data: Hex) =>
    chain.sendRawTransaction(await signTx(chain, 0, { to, nonce: nonce++, gas: 2_000_000n, data: hexToBytes(data) }))
  await send(null, encodeDeployData({ abi: testToken.abi, bytecode: testToken.bytecode, args: [10n ** 24n] }))
  await chain.mine()
  const holder = `0x${Buffer.from(chain.accounts[0].address).toString('hex')}` as Hex
  const token = hexToBytes(getContractAddress({ from: holder, nonce: 0n }))
  const balanceOf = encodeFunctionData({ abi: testToken.abi, functionName: 'balanceOf', args: [holder] })
  const transfer = (i: number) =>
    encodeFunctionData({
      abi: testToken.abi,
      functionName: 'transfer',
      args: [`0x${(i + 1).toString(16).padStart(40, '0')}`, 1n],
    })
  let distinct = 0
  const call = (at: unknown) =>
    chain.executor.call(at, {
      to: token,
      data: hexToBytes(`${balanceOf}${(++distinct).toString(16).padStart(64, '0')}`),
    })

  const measure = args.alloc ? allocated() : cpu
  const figures: Figures = { flashblock: { first: [], later: [] }, block: { first: [], later: [] } }
  const roots = Number(args.roots)
  // the loop turns between flashblocks, as a service's does: the state snapshot is made and moved on immediates
  const turn = () => new Promise((resolve) => setImmediate(resolve))
  for (let i = 0; i < 300; i++) await turn()
  // the first fifth warms the JIT and the caches, untimed
  const perBlock = Number(args['per-block'])
  const txs = Number(args.txs)
  let holders = 0
  for (let i = -Math.ceil(roots / 5); i < roots; i++) {
    await turn()
    for (let t = 0; t < txs; t++) await send(token, transfer(holders++))
    // the block's last flashblock is sealed: the first call after it reads the new block's root
    const sealing = (i + roots) % perBlock === perBlock - 1
    await chain.buildNow()
    if (sealing) await chain.sealNow()
    const at = sealing ? chain.store.latest() : await chain.resolverFor('flashblocks').pendingBlock()
    // named, so a profile's samples of each call sit under its own frame
    const first = await measure(function firstCallAtRoot() {
      return call(at)
    })
    const later = await measure(function laterCallAtRoot() {
      return call(at)
    })
    if (i < 0) continue
    figures[sealing ? 'block' : 'flashblock'].first.push(first)
    figures[sealing ? 'block' : 'flashblock'].later.push(later)
  }
  await chain.stop()
  return figures
}

/** The process's CPU µs over `work`. */
async function cpu(work: () => unknown): Promise<number> {
  const before = process.cpuUsage()
  await work()
  const used = process.cpuUsage(before)
  return used.user + used.system
}

/** Bytes allocated over `work`, as V8's sampling heap profiler counts them (every 64 bytes on average). */
function allocated(): (work: () => unknown) => Promise<number> {
  const session = new Session()
  session.connect()
  const post = (method: string, params?: object) =>
    new Promise<unknown>((resolve, reject) =>
      session.post(method, params, (err, result) => (err ? reject(err) : resolve(result))),
    )
  type Node = { selfSize: number; children: Node[] }
  const sum = (node: Node): number => node.children.reduce((total, child) => total + sum(child), node.selfSize)
  return async (work) => {
    await post('HeapProfiler.startSampling', {
      samplingInterval: 64,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    })
    await work()
    const { profile } = (await post('HeapProfiler.stopSampling')) as { profile: { head: Node } }
    return sum(profile.head)
  }
}
