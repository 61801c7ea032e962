import { afterAll, beforeAll, expect, test } from 'vitest'
import type { Chain } from '../../chain/chain.js'
import { createChain } from '../../chain/create-chain.js'
import { defaultConfig } from '../../config.js'
import type { AccountOverrideSpec, CallRequest, StateOverrideSpec } from '../../domain/call-request.js'
import type { SimulateBlockSpec, SimulatedBlock } from '../../domain/simulate.js'
import { interpreterStats } from '../interpreter/stats.js'
import { simulate } from '../execution/simulate/simulate.js'
import { isolatedStateAt } from '../state-views.js'
import {
  CALL_THEN_REVERT,
  CALLER,
  COUNT_THEN_CREATE,
  DELEGATOR,
  KV,
  KV_REVERT,
  LOOP,
  plain,
} from '../../../test/support/frame-programs.js'

/** The programs (test/support/frame-programs.ts), each at an address of its own through the first block's state overrides. */
const address = (n: number) => `0x${n.toString(16).padStart(40, '0')}`
const bytes = (hex: string) => Uint8Array.from(Buffer.from(hex.replace(/^0x/, ''), 'hex'))
const word = (v: bigint | string) => (typeof v === 'bigint' ? v.toString(16) : v.replace(/^0x/, '')).padStart(64, '0')
const PROGRAMS = {
  kv: KV,
  kvRevert: KV_REVERT,
  loop: LOOP,
  caller: CALLER,
  delegator: DELEGATOR,
  create: COUNT_THEN_CREATE,
  callThenRevert: CALL_THEN_REVERT,
}
const at = Object.fromEntries(Object.keys(PROGRAMS).map((name, i) => [name, address(0xc0de00 + i)])) as Record<
  keyof typeof PROGRAMS,
  string
>
/** An account that exists and is empty (the overrides make it): EIP-161 deletes it once a frame touches it. */
const EMPTY = address(0xe0e0)
const SENDER = address(0x5e0d)
const RIPEMD = address(3)

const programs = (): StateOverrideSpec =>
  new Map<string, AccountOverrideSpec>([
    ...Object.entries(PROGRAMS).map(([name, code]): [string, AccountOverrideSpec] => [
      at[name as keyof typeof PROGRAMS],
      { code: bytes(code) },
    ]),
    [EMPTY, { balance: 0n }],
    [SENDER, { balance: 10n ** 20n }],
  ])

const call = (to: string, data: string, extra: Partial<CallRequest> = {}): CallRequest => ({
  from: bytes(SENDER),
  to: bytes(to),
  data: bytes(data),
  ...extra,
})
const write = (slot: bigint, value: bigint) => word(slot) + word(value)
const through = (proxy: string, target: string, data = '') => call(proxy, word(target) + data)

let chain: Chain
beforeAll(async () => {
  chain = await createChain(defaultConfig({ quiet: true }))
})
afterAll(() => chain?.stop())

/** The blocks simulated on the chain's head, with the outermost frames on the interpreter or on @ethereumjs alone. */
async function simulated(
  blocks: SimulateBlockSpec[],
  interpreter: boolean,
  options: { validation?: boolean; traceTransfers?: boolean } = {},
): Promise<SimulatedBlock[]> {
  const base = chain.store.latest()
  const state = isolatedStateAt(chain.vm, base.header.stateRoot)
  return simulate(
    { common: chain.vm.common, base, state, blockHashes: chain.vm.blockchain as never, interpreter },
    { blocks, validation: options.validation ?? false, traceTransfers: options.traceTransfers ?? false },
  )
}

/** Both runs, compared whole: each block's hash covers its state root, receipts root, logs bloom and gas used. */
async function sameAsReference(
  blocks: SimulateBlockSpec[],
  options?: { validation?: boolean; traceTransfers?: boolean },
) {
  const reference = await simulated(blocks, false, options)
  const before = interpreterStats.simulated
  const ours = await simulated(blocks, true, options)
  expect(plain(ours)).toEqual(plain(reference))
  return { ours, interpreted: interpreterStats.simulated - before }
}

test('writes, reads, reverts, refunds and out-of-gas calls across simulated calls and blocks leave what runTx alone leaves', async () => {
  const { ours, interpreted } = await sameAsReference([
    {
      blockOverrides: {},
      stateOverrides: programs(),
      calls: [
        call(at.kv, write(1n, 5n)),
        call(at.kv, word(1n)),
        call(at.kv, write(2n, 7n)),
        call(at.kvRevert, write(1n, 9n)),
        call(at.kv, word(1n)),
        call(at.loop, '', { gas: 100_000n }),
        call(at.kv, write(1n, 0n)),
      ],
    },
    { blockOverrides: {}, calls: [call(at.kv, word(2n)), call(at.kv, write(2n, 0n)), call(at.kv, write(2n, 3n))] },
  ])
  const [first, second] = ours
  expect(first!.calls.map((c) => c.status)).toEqual([1, 1, 1, 0, 1, 0, 1])
  expect(BigInt(`0x${Buffer.from(first!.calls[1]!.returnData).toString('hex')}`)).toBe(5n)
  expect(BigInt(`0x${Buffer.from(first!.calls[4]!.returnData).toString('hex')}`)).toBe(5n)
  expect(BigInt(`0x${Buffer.from(second!.calls[0]!.returnData).toString('hex')}`)).toBe(7n)
  expect(first!.calls[0]!.logs).toHaveLength(1)
  // the slot cleared in the last call of the first block: a refund, so less gas than the most it used
  expect(first!.calls[6]!.gasUsed).toBeLessThan(first!.calls[6]!.maxUsedGas)
  expect(interpreted).toBe(10)
})

test('nested calls, delegated writes and EIP-161 touches (an existing empty account, RIPEMD-160) leave what runTx alone leaves', async () => {
  const { interpreted } = await sameAsReference([
    {
      blockOverrides: {},
      stateOverrides: programs(),
      calls: [
        through(at.caller, at.kv, write(4n, 44n)),
        through(at.delegator, at.kv, write(4n, 45n)),
        through(at.caller, at.kv, word(4n)),
        through(at.delegator, at.kv, word(4n)),
        through(at.caller, at.kvRevert, write(4n, 46n)),
        through(at.caller, RIPEMD, 'abcd'),
        through(at.caller, EMPTY),
        through(at.delegator, at.kvRevert, write(5n, 1n)),
      ],
    },
  ])
  expect(interpreted).toBe(8)
})

test('a touch of RIPEMD-160 outlasts the revert of its frame, as in @ethereumjs’s journal, and another touch does not', async () => {
  const overrides = programs()
  overrides.set(RIPEMD, { balance: 0n })
  // each block's state root tells whether the existing empty accounts were touched (and so deleted) in it
  const { interpreted } = await sameAsReference([
    { blockOverrides: {}, stateOverrides: overrides, calls: [call(at.callThenRevert, word(EMPTY))] },
    { blockOverrides: {}, calls: [through(at.caller, at.callThenRevert, word(RIPEMD))] },
    {
      blockOverrides: {},
      stateOverrides: new Map([[RIPEMD, { balance: 0n }]]),
      calls: [call(at.callThenRevert, word(RIPEMD))],
    },
  ])
  expect(interpreted).toBe(3)
})

test('a frame the interpreter hands back mid-way (CREATE after an SSTORE) has written nothing, and @ethereumjs runs it', async () => {
  const fallbacks = interpreterStats.simulateFallbacks.get('CREATE') ?? 0
  const { ours } = await sameAsReference([
    {
      blockOverrides: {},
      stateOverrides: programs(),
      calls: [call(at.kv, write(1n, 1n)), call(at.create, ''), call(at.create, ''), call(at.kv, word(1n))],
    },
  ])
  expect(ours[0]!.calls.map((c) => c.status)).toEqual([1, 1, 1, 1])
  expect(interpreterStats.simulateFallbacks.get('CREATE')).toBe(fallbacks + 2)
})

test('paying calls (fees, a value to the outermost frame) under validation leave what runTx alone leaves', async () => {
  const fees = { maxFeePerGas: 2_000_000_000n, maxPriorityFeePerGas: 1_000_000n }
  const { interpreted } = await sameAsReference(
    [
      {
        blockOverrides: {},
        stateOverrides: programs(),
        calls: [
          call(at.kv, write(1n, 5n), { ...fees, nonce: 0n }),
          call(at.kv, word(1n), { ...fees, nonce: 1n, value: 12345n }),
          call(at.caller, word(at.kv) + write(1n, 0n), { ...fees, nonce: 2n }),
        ],
      },
    ],
    { validation: true },
  )
  expect(interpreted).toBe(3)
})

test('a traced simulation (traceTransfers) keeps every frame on @ethereumjs, whose events the tracer reads', async () => {
  const traced = interpreterStats.simulateFallbacks.get('traced (EVM event listeners)') ?? 0
  const { interpreted } = await sameAsReference(
    [{ blockOverrides: {}, stateOverrides: programs(), calls: [call(at.kv, write(1n, 5n), { value: 1n })] }],
    { traceTransfers: true },
  )
  expect(interpreted).toBe(0)
  expect(interpreterStats.simulateFallbacks.get('traced (EVM event listeners)')).toBe(traced + 1)
})
