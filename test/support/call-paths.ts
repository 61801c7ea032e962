/**
 * A call on both of the embedded chain's call paths, for tests that hold the fast one (fast-call.ts) to the
 * runTx one: same output, error and gas used. Plus raw runtime code deployed as a contract, for programs
 * that exercise one opcode.
 */
import { expect } from 'vitest'
import { getContractAddress, type Hex } from 'viem'
import type { Chain } from '../../src/chain/chain.js'
import { CallEvms } from '../../src/chain/execution/fast-call.js'
import { execute } from '../../src/chain/execution/run.js'
import { VmPool } from '../../src/chain/execution/vm-pool.js'
import type { CallRequest } from '../../src/domain/call-request.js'
import { signTx } from './sign-tx.js'

/** `request` with `gas` at the head on the fast path and on runTx's: their results, for the test to compare. */
export async function onBothPaths(chain: Chain, request: CallRequest, gas = 30_000_000n) {
  const header = chain.store.latest().header
  const fast = await new CallEvms(chain.vm).run(chain.readerAt(header.stateRoot), header, request, gas)
  const env = { vm: chain.vm, vms: new VmPool(chain.vm), stateRoot: header.stateRoot, header }
  const slow = await execute(env, request, gas)
  expect(fast).toBeDefined()
  return { fast: fast!.execResult, slow: slow.execResult }
}

/** Deploys `runtime` (hex, no 0x) from dev account 0 with `nonce` and mines it; its address. */
export async function deployRuntime(chain: Chain, runtime: string, nonce: number): Promise<Uint8Array> {
  const length = (runtime.length / 2).toString(16).padStart(4, '0')
  // PUSH2 length, DUP1, PUSH1 12, PUSH1 0, CODECOPY, PUSH1 0, RETURN: the 12 bytes before the runtime
  const init = `0x61${length}80600c6000396000f3${runtime}` as Hex
  const data = Uint8Array.from(Buffer.from(init.slice(2), 'hex'))
  await chain.sendRawTransaction(await signTx(chain, 0, { to: null, nonce, gas: 1_000_000n, data }))
  await chain.mine()
  const from = `0x${Buffer.from(chain.accounts[0].address).toString('hex')}` as Hex
  return Uint8Array.from(Buffer.from(getContractAddress({ from, nonce: BigInt(nonce) }).slice(2), 'hex'))
}
