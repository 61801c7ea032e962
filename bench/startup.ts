/**
 * `npm run bench:startup [-- runs]`: how long from typing `npx preconf-rpc` to the first answer, under
 * each supported Node version, beside anvil measured in the same run. The package is the packed tarball
 * installed into an empty folder (as test/package/ does); each run spawns the process and polls
 * eth_chainId every 5 ms until it answers. Also the bin without npx (what a process manager runs). Beside the
 * time, the CPU (user + system) the started process group had used when it answered: on a busy machine the
 * time mostly measures the neighbours, the CPU what a start costs (the test suite starts the CLI ~40 times).
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
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

/** CPU milliseconds (user + system) the live processes of process group `group` have used (Linux /proc). */
function groupCpuMs(group: number): number {
  let ticks = 0
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      // the fields after the command's closing parenthesis: state is 3rd, pgrp 5th, utime 14th, stime 15th
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
      if (Number(fields[2]) === group) ticks += Number(fields[11]) + Number(fields[12])
    } catch {
      // the process ended meanwhile
    }
  }
  return ticks * 10 // USER_HZ is 100 on Linux
}

interface Start {
  ms: number
  cpuMs: number
}

/** Time from spawn to the first eth_chainId result on `port`, and the CPU used by then; then the group is stopped. */
async function timeToFirstAnswer(start: (port: number) => ChildProcess): Promise<Start> {
  const port = await freePort()
  const started = performance.now()
  const child = start(port)
  let exited = false
  child.once('exit', () => (exited = true))
  try {
    for (;;) {
      if (await answers(`http://127.0.0.1:${port}`))
        return { ms: performance.now() - started, cpuMs: groupCpuMs(child.pid!) }
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
  const starts: Start[] = []
  for (let i = 0; i < runs; i++) starts.push(await timeToFirstAnswer(start))
  const times = starts.map((s) => s.ms)
  const { p50, max } = percentiles(times)
  const min = Math.round(Math.min(...times))
  const cpu = percentiles(starts.map((s) => s.cpuMs)).p50
  console.log(
    `${label.padEnd(44)} min ${String(min).padStart(5)} ms   median ${String(Math.round(p50)).padStart(5)} ms   max ${String(Math.round(max)).padStart(5)} ms   CPU median ${String(Math.round(cpu)).padStart(5)} ms`,
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
