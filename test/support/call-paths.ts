/**
 * A call on both of the embedded chain's call paths, for tests that hold the fast one (fast-call.ts) to the
 * runTx one: same output, error and gas used. Plus chains with raw runtime code deployed as contracts, for
 * programs that exercise one opcode with words from the calldata.
 */
import { expect } from 'vitest'
import { getContractAddress, type Hex } from 'viem'
import type { Chain } from '../../src/chain/chain.js'
import { createChain } from '../../src/chain/create-chain.js'
import { CallEvms } from '../../src/evm/execution/fast-call.js'
import { execute } from '../../src/evm/execution/run.js'
import { VmPool } from '../../src/evm/execution/vm-pool.js'
import { defaultConfig } from '../../src/config.js'
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

/** Asserts `request` gives the same error, output and gas used on both paths; `what` names the case. */
export async function expectBothPathsAgree(chain: Chain, request: CallRequest, gas: bigint | undefined, what: string) {
  const { fast, slow } = await onBothPaths(chain, request, gas)
  expect(fast.exceptionError?.error, what).toBe(slow.exceptionError?.error)
  expect(fast.returnValue, what).toEqual(slow.returnValue)
  expect(fast.executionGasUsed, what).toBe(slow.executionGasUsed)
}

/** Calldata of 32-byte big-endian words. */
export function words(...values: bigint[]): Uint8Array {
  return Uint8Array.from(Buffer.from(values.map((v) => v.toString(16).padStart(64, '0')).join(''), 'hex'))
}

/** A fresh embedded chain with each runtime (hex, no 0x) deployed from dev account 0: the chain and addresses. */
export async function chainWithPrograms<Name extends string>(programs: Record<Name, string>) {
  const chain = await createChain(defaultConfig({ quiet: true }))
  const contracts = {} as Record<Name, Uint8Array>
  let nonce = 0
  for (const [name, runtime] of Object.entries(programs) as [Name, string][])
    contracts[name] = await deployRuntime(chain, runtime, nonce++)
  return { chain, contracts }
}

async function deployRuntime(chain: Chain, runtime: string, nonce: number): Promise<Uint8Array> {
  const length = (runtime.length / 2).toString(16).padStart(4, '0')
  // PUSH2 length, DUP1, PUSH1 12, PUSH1 0, CODECOPY, PUSH1 0, RETURN: the 12 bytes before the runtime
  const init = `0x61${length}80600c6000396000f3${runtime}` as Hex
  const data = Uint8Array.from(Buffer.from(init.slice(2), 'hex'))
  await chain.sendRawTransaction(await signTx(chain, 0, { to: null, nonce, gas: 1_000_000n, data }))
  await chain.mine()
  const from = `0x${Buffer.from(chain.accounts[0].address).toString('hex')}` as Hex
  return Uint8Array.from(Buffer.from(getContractAddress({ from, nonce: BigInt(nonce) }).slice(2), 'hex'))
}
