/**
 * A fresh process's first heavy calls without HTTP or other processes: a service in process with the heavy-call
 * contracts (bench/heavy-setup.ts's quote and aggregate), the CLI's warm-up (src/warm-up.ts; not with
 * --no-warm-up) and 3 s for it, then the interpreter's analysis of the quote contract's code (a new copy each
 * time: what a contract nobody called before costs), and the first six calls of each case through the
 * executor: this thread's CPU ms (its schedstat, after a 1 ms sleep that brings the kernel's count up to date)
 * and wall ms. Run it with and without the warm-up, alternating, beside the machine's load.
 *
 *   npx tsx bench/cold-parts.ts [--no-warm-up] [--only=quote,aggregate]
 */
import { readFileSync } from 'node:fs'
import { Address, hexToBytes } from '@ethereumjs/util'
import { encodeDeployData, encodeFunctionData, getContractAddress, type Abi, type Hex } from 'viem'
import heavy from '../test/fixtures/HeavyCalls.json' with { type: 'json' }
import { testToken } from '../test/support/fixtures.js'
import { signTx } from '../test/support/sign-tx.js'
import { startFrozenService } from '../test/support/harness.js'
import { analyse } from '../src/evm/interpreter/analysis.js'
import { warmUp } from '../src/warm-up.js'

const sleeper = new Int32Array(new SharedArrayBuffer(4))
/** This thread's CPU ms: a 1 ms sleep first, so the kernel brings its count up to date (it does at a switch). */
const mainMs = () => {
  Atomics.wait(sleeper, 0, 0, 1)
  return Number(readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ')[0]) / 1e6
}
const heavyCalls = heavy.HeavyCalls as unknown as { abi: Abi; bytecode: Hex }
// a service whose chain moves only when mined here (its warm-up's calls go through its dispatcher)
const service = await startFrozenService()
const { chain } = service
let nonce = 0
async function send(to: Uint8Array | null, data: Hex): Promise<Uint8Array> {
  await chain.sendRawTransaction(
    await signTx(chain, 0, { to, nonce: nonce++, gas: 6_000_000n, data: hexToBytes(data) }),
  )
  await chain.mine()
  const from = `0x${Buffer.from(chain.accounts[0].address).toString('hex')}` as Hex
  return hexToBytes(getContractAddress({ from, nonce: BigInt(nonce - 1) }))
}
const token = await send(
  null,
  encodeDeployData({ abi: testToken.abi, bytecode: testToken.bytecode, args: [10n ** 24n] }),
)
const calls = await send(null, heavyCalls.bytecode)
await send(calls, encodeFunctionData({ abi: heavyCalls.abi, functionName: 'addPools', args: [8n, 7n] }))
if (!process.argv.includes('--no-warm-up')) warmUp(service)
await new Promise((r) => setTimeout(r, 3000))

const code = (await chain.readerAt(chain.store.latest().header.stateRoot).readCode!(new Address(calls))) as Uint8Array
for (let i = 0; i < 3; i++) {
  const t0 = mainMs()
  analyse(code.slice())
  console.log(`analyse ${code.length} bytes, copy ${i + 1}: ${(mainMs() - t0).toFixed(2)} ms`)
}
const holders = Array.from({ length: 100 }, (_, i) => `0x${(i + 1).toString(16).padStart(40, '0')}` as Hex)
const tokenHex = `0x${Buffer.from(token).toString('hex')}` as Hex
const balanceOf = (h: Hex) => encodeFunctionData({ abi: testToken.abi, functionName: 'balanceOf', args: [h] })
const cases = {
  quote: encodeFunctionData({ abi: heavyCalls.abi, functionName: 'quote', args: [10n ** 20n, 20n] }),
  aggregate: encodeFunctionData({
    abi: heavyCalls.abi,
    functionName: 'aggregate',
    args: [holders.map((h) => ({ target: tokenHex, callData: balanceOf(h) }))],
  }),
}
for (const name of (process.argv.find((a) => a.startsWith('--only='))?.slice(7) ?? 'quote,aggregate').split(',')) {
  const out: string[] = []
  for (let i = 0; i < 6; i++) {
    const request = { to: calls, data: hexToBytes(cases[name as keyof typeof cases]), gas: 10_000_000n - BigInt(i) }
    console.log(`=== ${name} call ${i + 1}`) // a marker for --trace-opt's output
    const t0 = mainMs()
    const w0 = performance.now()
    await chain.executor.call(chain.store.latest(), request)
    const wall = performance.now() - w0
    out.push(`${(mainMs() - t0).toFixed(2)} [${wall.toFixed(2)}]`)
  }
  console.log(`${name}: main-thread ms [wall] of calls 1-6: ${out.join(' ')}`)
}
await service.close()
process.exit(0)
