import { readdirSync } from 'node:fs'
import { dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { chainWithPrograms, words } from '../../../test/support/call-paths.js'
import { CallEvms } from '../execution/fast-call.js'
import { execute } from '../execution/run.js'
import { VmPool } from '../execution/vm-pool.js'
import { isBudgetHook } from './budget-steps.js'
import { hookRuns } from './hook-runs.js'
import { exportOf, loadInternals } from './internals.js'
import { installEvmPatches } from './install.js'
import { EvmPatchError } from './patch-error.js'
import { probeInterpreter } from './probes.js'

/** The folder's files that hold no hook: the install, its checks and what they share. */
const MACHINERY = [
  'install.ts',
  'internals.ts',
  'probes.ts',
  'version.ts',
  'patch-error.ts',
  'hook-runs.ts',
  'words.ts',
]

/**
 * CALLDATALOAD, MSTORE, KECCAK256 of it, SLOAD of that slot, a JUMP, MLOAD, RETURN: a mapping read as a
 * Solidity view does it, through every hook of the call path.
 */
const VIEW = '5f355f5260205f20545f52600e565b5f515f5260205ff3'
/** JUMPDEST, PUSH1 0, JUMP: runs until its gas is gone. */
const LOOP = '5b600056'

let setup: Awaited<ReturnType<typeof chainWithPrograms<'view' | 'loop'>>>

beforeAll(async () => {
  setup = await chainWithPrograms({ view: VIEW, loop: LOOP })
})

afterAll(() => setup.chain.stop())

test('the install reports a hook for every file in src/evm/patches/ that holds one', async () => {
  const report = await installEvmPatches()
  const here = dirname(fileURLToPath(import.meta.url))
  const machinery = report.processWide ? MACHINERY : [...MACHINERY, 'budget-steps.ts']
  const files = readdirSync(here).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !machinery.includes(f))
  expect(new Set(report.hooks.map((h) => h.file))).toEqual(new Set(files))
  const counted = report.hooks.flatMap((h) => (h.counter ? [h.counter] : []))
  const expected = Object.keys(hookRuns).filter((name) => report.processWide || name !== 'budgetSteps')
  expect(new Set(counted)).toEqual(new Set(expected))
})

test('a plain call on the fast path goes through every hook of the call path', async () => {
  const report = await installEvmPatches()
  const { chain, contracts } = setup
  const header = chain.store.latest().header
  // the patched loop itself, not the interpreter (src/evm/interpreter/), which runs the calls it can without it
  const calls = new CallEvms(chain.vm, undefined, false)
  const before = { ...hookRuns }
  // twice on one EVM: the second call's jump analysis comes from the first's
  for (const key of [1n, 2n]) {
    const result = await calls.runOnce(
      chain.readerAt(header.stateRoot),
      header,
      { to: contracts.view, data: words(key) },
      100_000n,
    )
    expect(result?.execResult.exceptionError).toBeUndefined()
    expect(result?.execResult.returnValue).toEqual(words(0n))
  }
  for (const hook of report.hooks.filter((h) => h.scope === 'call path'))
    expect(hookRuns[hook.counter!], `${hook.file}: ${hook.touches}`).toBeGreaterThan(before[hook.counter!])
})

test('the shipped Interpreter carries the budget’s step count only when installed process-wide, and runTx’s loop then counts', async () => {
  const report = await installEvmPatches()
  const { Interpreter } = await loadInternals()
  expect(isBudgetHook(Interpreter.prototype.runStep)).toBe(report.processWide)
  const { chain, contracts } = setup
  const header = chain.store.latest().header
  const env = { vm: chain.vm, vms: new VmPool(chain.vm), stateRoot: header.stateRoot, header }
  const before = hookRuns.budgetSteps
  // a value sent takes runTx's path: the shipped loop, ~80 000 rounds of the loop before its gas is gone
  const result = await execute(env, { from: chain.accounts[0].address, to: contracts.loop, value: 1n }, 1_000_000n)
  expect(result.execResult.exceptionError?.error).toBe('out of gas')
  expect(hookRuns.budgetSteps > before).toBe(report.processWide)
})

test('a file of @ethereumjs that moved, or a method that is gone, is an error naming it', async () => {
  await expect(
    exportOf<{ Interpreter: unknown }, 'Interpreter'>('interpreter-moved.js', 'Interpreter'),
  ).rejects.toThrow(
    /EVM patch @ethereumjs\/evm\/dist\/esm\/interpreter-moved\.js Interpreter cannot be installed: the file did not load/,
  )
  await expect(exportOf<{ Interpretor: unknown }, 'Interpretor'>('interpreter.js', 'Interpretor')).rejects.toThrow(
    /has no export Interpretor/,
  )
  expect(() => probeInterpreter(class {} as never)).toThrow(EvmPatchError)
  expect(() => probeInterpreter(class {} as never)).toThrow(/EVM patch Interpreter\.run cannot be installed/)
})
