/**
 * `npm run bench:startup [-- runs]`: how long from typing `npx preconf-rpc` to the first answer, under
 * each supported Node version, beside anvil measured in the same run. The package is the packed tarball
 * installed into an empty folder (as test/package/ does); each run spawns the process and polls
 * eth_chainId every 5 ms until it answers. Also the bin without npx (what a process manager runs).
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { join } from 'node:path'
import { ANVIL_BIN } from '../test/support/anvil.js'
import { freePort } from '../test/support/free-port.js'
import {
  installPackedPackage,
  nodeBinary,
  stopGroup,
  SUPPORTED_NODE_MAJORS,
  userEnv,
} from '../test/support/packed-package.js'
import { percentiles } from './lib.js'

const runs = Number(process.argv[2] ?? 5)
const CHAIN_ID = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] })

async function answers(url: string): Promise<boolean> {
  try {
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: CHAIN_ID })
    return ((await res.json()) as { result?: string }).result !== undefined
  } catch {
    return false
  }
}

/** Milliseconds from spawn to the first eth_chainId result on `port`; then the process group is stopped. */
async function timeToFirstAnswer(start: (port: number) => ChildProcess): Promise<number> {
  const port = await freePort()
  const started = performance.now()
  const child = start(port)
  let exited = false
  child.once('exit', () => (exited = true))
  try {
    for (;;) {
      if (await answers(`http://127.0.0.1:${port}`)) return performance.now() - started
      if (exited) throw new Error(`${child.spawnfile} exited before answering`)
      if (performance.now() - started > 60_000) throw new Error(`${child.spawnfile} did not answer within 60 s`)
      await new Promise((r) => setTimeout(r, 5))
    }
  } finally {
    const gone = new Promise((r) => child.once('exit', r))
    stopGroup(child)
    if (!exited) await gone
  }
}

async function measure(label: string, start: (port: number) => ChildProcess): Promise<void> {
  const times: number[] = []
  for (let i = 0; i < runs; i++) times.push(await timeToFirstAnswer(start))
  const { p50, max } = percentiles(times)
  const min = Math.round(Math.min(...times))
  console.log(
    `${label.padEnd(44)} min ${String(min).padStart(5)} ms   median ${String(Math.round(p50)).padStart(5)} ms   max ${String(Math.round(max)).padStart(5)} ms`,
  )
}

console.log(`packing and installing preconf-rpc into an empty folder…`)
const installed = await installPackedPackage()
const bin = join(installed.dir, 'node_modules', 'preconf-rpc', 'bin', 'preconf-rpc.js')
console.log(
  `spawn -> first eth_chainId answer, ${runs} runs each (machine: ${process.arch}, load ${(await import('node:os')).loadavg()[0]!.toFixed(1)})\n`,
)
try {
  await measure('anvil', (port) =>
    spawn(ANVIL_BIN, ['--port', String(port), '--silent'], { stdio: 'ignore', detached: true }),
  )
  for (const major of SUPPORTED_NODE_MAJORS) {
    const node = nodeBinary(major)
    if (node === undefined) {
      console.log(`Node ${major}: not installed (.ci/run puts it in .ci/node/${major})`)
      continue
    }
    const args = (port: number) => ['--port', String(port), '--quiet']
    await measure(`Node ${major}: npx preconf-rpc`, (port) =>
      spawn('npx', ['--no', '--', 'preconf-rpc', ...args(port)], {
        cwd: installed.dir,
        env: userEnv(node),
        stdio: 'ignore',
        detached: true,
      }),
    )
    await measure(`Node ${major}: node …/bin/preconf-rpc.js (no npx)`, (port) =>
      spawn(node, [bin, ...args(port)], { cwd: installed.dir, stdio: 'ignore', detached: true }),
    )
  }
} finally {
  await installed.remove()
}
