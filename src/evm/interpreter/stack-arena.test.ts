/**
 * The arena of frames' stacks in the kernel's memory (stack-arena.ts), seen through calls on a real chain:
 * frames a call abandons (a Fallback thrown deep in its frames) give their stacks back once collected, and
 * a frame made when every stack is taken still runs, on a stack of its own without compiled blocks.
 */
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { hexToBytes } from '@ethereumjs/util'
import { encodeFunctionData, getContractAddress, type Abi, type Hex } from 'viem'
import { afterAll, beforeAll, expect, test } from 'vitest'
import heavy from '../../../test/fixtures/HeavyCalls.json' with { type: 'json' }
import { signTx } from '../../../test/support/sign-tx.js'
import type { Chain } from '../../chain/chain.js'
import { createChain } from '../../chain/create-chain.js'
import { defaultConfig } from '../../config.js'
import type { CallRequest } from '../../domain/call-request.js'
import { CallEvms } from '../execution/fast-call.js'
import { ARENA } from './kernel.js'
import { giveBackStack, takeStack } from './stack-arena.js'
import { interpreterStats } from './stats.js'

setFlagsFromString('--expose-gc')
const gc = runInNewContext('gc') as () => void

const heavyCalls = heavy.HeavyCalls as unknown as { abi: Abi; bytecode: Hex }
let chain: Chain
let nonce = 0
let recurse: Uint8Array
let quoter: Uint8Array

/**
 * Calls itself with calldata n-1 until n is 0, then (selector byte 1 in the word's top byte) runs CREATE,
 * which the interpreter hands to the reference path from inside all those frames, or REVERTs.
 */
const RECURSE = [
  ['6000', '35', '80', '60ff', '16'], // n = calldataload(0) & 0xff
  ['80', '6022', '57'], // if n != 0 goto RECURSE_AT
  ['6000', '35', '60f8', '1c'], // the top byte: what the bottom frame does
  ['6019', '57', '6000', '6000', 'fd'], // 0: REVERT(0, 0)
  ['5b', '6000', '6000', '6000', 'f0', '00'], // else CREATE(0, 0, 0)
  ['5b', '6001', '90', '03'], // RECURSE_AT: n - 1
  ['6000', '35', '60ff', '19', '16', '17', '6000', '52'], // keep the top byte, put n - 1 below it
  ['6000', '6000', '6020', '6000', '6000', '30', '5a', 'f1'], // CALL(gas, self, 0, 0, 32, 0, 0)
  ['6000', '52', '6020', '6000', 'f3'], // return the child's success
]
  .flat()
  .join('')

async function deploy(code: Hex): Promise<Uint8Array> {
  const n = nonce++
  await chain.sendRawTransaction(
    await signTx(chain, 0, { to: null, nonce: n, gas: 5_000_000n, data: hexToBytes(code) }),
  )
  await chain.mine()
  const from = `0x${Buffer.from(chain.accounts[0].address).toString('hex')}` as Hex
  return hexToBytes(getContractAddress({ from, nonce: BigInt(n) }))
}

/** Init code that returns `runtime` as the contract's code. */
function initFor(runtime: string): Hex {
  const size = (runtime.length / 2).toString(16).padStart(2, '0')
  return `0x60${size}80600b6000396000f3${runtime}`
}

beforeAll(async () => {
  chain = await createChain(defaultConfig({ quiet: true }))
  recurse = await deploy(initFor(RECURSE))
  quoter = await deploy(heavyCalls.bytecode)
  await chain.sendRawTransaction(
    await signTx(chain, 0, {
      to: quoter,
      nonce: nonce++,
      gas: 3_000_000n,
      data: hexToBytes(encodeFunctionData({ abi: heavyCalls.abi, functionName: 'addPools', args: [8n, 7n] })),
    }),
  )
  await chain.mine()
})

afterAll(() => chain.stop())

/** The arena's free stacks: taken one by one until it has none, then given back. */
function freeStacks(): number {
  const held: { owner: object; base: number }[] = []
  for (;;) {
    const owner = {}
    const { base } = takeStack(owner)
    if (base < 0) break
    held.push({ owner, base })
  }
  for (const { owner, base } of held) giveBackStack(owner, base)
  return held.length
}

/** Collects until the arena has at least `count` free stacks, each round a turn of the event loop for the registry's callbacks. */
async function collectUntilFree(count: number, rounds = 50): Promise<number> {
  let free = freeStacks()
  for (let i = 0; i < rounds && free < count; i++) {
    gc()
    await new Promise((resolve) => setImmediate(resolve))
    free = freeStacks()
  }
  return free
}

async function run(request: CallRequest, interpreter: boolean) {
  const header = chain.store.latest().header
  const result = await new CallEvms(chain.vm, undefined, interpreter).runOnce(
    chain.readerAt(header.stateRoot),
    header,
    request,
    30_000_000n,
  )
  return result!.execResult
}

const depthWord = (depth: number, bottom: 'revert' | 'create') =>
  hexToBytes(`0x${bottom === 'create' ? '01' : '00'}${'00'.repeat(30)}${depth.toString(16).padStart(2, '0')}`)

test('a call 60 frames deep that reverts at the bottom gives every frame’s stack back as it returns', async () => {
  await run({ to: recurse, data: depthWord(60, 'revert') }, true) // the frames' pool filled once
  const before = freeStacks()
  const answered = interpreterStats.answered
  const result = await run({ to: recurse, data: depthWord(60, 'revert') }, true)
  expect(interpreterStats.answered).toBe(answered + 1)
  expect(result.exceptionError).toBeUndefined()
  expect(freeStacks()).toBe(before)
})

test('a call abandoned by a CREATE 60 frames deep gets its stacks back once the frames are collected, and the answer is the reference path’s', async () => {
  await run({ to: recurse, data: depthWord(60, 'revert') }, true) // the frames' pool filled: each holds a stack
  const before = freeStacks()
  const fallbacks = interpreterStats.fallbacks.get('CREATE') ?? 0
  const result = await run({ to: recurse, data: depthWord(60, 'create') }, true)
  expect(interpreterStats.fallbacks.get('CREATE')).toBe(fallbacks + 1)
  const reference = await run({ to: recurse, data: depthWord(60, 'create') }, false)
  expect(result.executionGasUsed).toBe(reference.executionGasUsed)
  expect(Buffer.from(result.returnValue).toString('hex')).toBe(Buffer.from(reference.returnValue).toString('hex'))
  // the abandoned frames hold their stacks until collected: the test sees the leak it guards against
  expect(freeStacks()).toBeLessThan(before - 40)
  // every stack is free again or held by a frame kept for reuse (the abandoned ones came from that pool too)
  const after = await collectUntilFree(before)
  expect(after).toBeGreaterThanOrEqual(before)
  expect(after).toBeLessThanOrEqual(ARENA.stacks)
})

test('with every stack of the arena taken, a heavy call still runs on the interpreter and answers as the reference', async () => {
  const data = hexToBytes(encodeFunctionData({ abi: heavyCalls.abi, functionName: 'quote', args: [10n ** 20n, 20n] }))
  const held: { owner: object; base: number }[] = []
  try {
    for (;;) {
      const owner = {}
      const { base } = takeStack(owner)
      if (base < 0) break
      held.push({ owner, base })
    }
    const answered = interpreterStats.answered
    const result = await run({ to: quoter, data }, true)
    expect(interpreterStats.answered).toBe(answered + 1)
    const reference = await run({ to: quoter, data }, false)
    expect(result.exceptionError).toBeUndefined()
    expect(Buffer.from(result.returnValue).toString('hex')).toBe(Buffer.from(reference.returnValue).toString('hex'))
    expect(result.executionGasUsed).toBe(reference.executionGasUsed)
  } finally {
    for (const { owner, base } of held) giveBackStack(owner, base)
  }
})
