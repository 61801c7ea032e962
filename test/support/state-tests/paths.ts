/**
 * The paths every state-test case runs through, and the one verdict per case and path they give:
 * passed, a failure classified in expected.ts (with its reason), an unexplained failure, or not applicable
 * (a case the path does not take: an invalid transaction is no eth_call).
 */
import type { EVM } from '@ethereumjs/evm'
import { withBudget } from '../../../src/evm/execution/budget.js'
import { interpreterStats } from '../../../src/evm/interpreter/stats.js'
import { patchSimulationEvm } from '../../../src/evm/patches/install.js'
import { callDifference, callRequestOf, runCallPaths } from './call-path.js'
import { expectedFailure } from './expected.js'
import type { Case } from './fixtures.js'
import type { PreStateUpstream } from './pre-state-upstream.js'
import { reexecuteCase } from './reexec-path.js'
import { matchesFixture, runTxCase } from './run-tx.js'
import { traceDifference } from './trace-path.js'

export const PATHS = {
  runTx: "runTx on the pre-state gives the fixture's post-state root and logs hash",
  call: "an eth_call of the transaction gives the same status, return data, gas used and logs on the fast path, on runTx's and with the pre-state as overrides",
  reexec: "the follower's re-execution on upstream-backed state gives the fixture's post-state root and logs hash",
  frames:
    "runTx with its outermost frame on the interpreter, as eth_simulateV1 runs a call, on a state as the chain's (caches, slots written at flush), gives the fixture's post-state root and logs hash",
  trace:
    'callTracer (with logs) and prestateTracer (without and with diffMode) of the transaction with its outermost frame on the interpreter, as debug_trace* runs it, give the reference path’s JSON, byte for byte',
} as const

export type PathName = keyof typeof PATHS

type Verdict = (
  | { kind: 'passed' }
  | { kind: 'skipped' }
  | { kind: 'expected'; why: string; reason: string }
  | { kind: 'failed'; why: string }
) & { fastPath?: boolean }

/**
 * A run's time budget per execution: far above any case's (they run in milliseconds), it turns a heavy
 * loop into a classified timeout instead of a stuck suite.
 */
const BUDGET_MS = 60_000
const budget = async <T>(evm: EVM, work: () => Promise<T>) => withBudget(evm, BUDGET_MS, work)

function verdict(c: Case, path: PathName, why: string | undefined): Verdict {
  if (why === undefined) return { kind: 'passed' }
  const reason = expectedFailure(c, path)
  return reason ? { kind: 'expected', why, reason } : { kind: 'failed', why }
}

async function caught(work: () => Promise<string | undefined>): Promise<string | undefined> {
  try {
    return await work()
  } catch (err) {
    return `threw ${(err as Error).message}`
  }
}

async function runPath(c: Case, path: PathName, upstream?: PreStateUpstream): Promise<Verdict> {
  switch (path) {
    case 'runTx':
      return verdict(c, path, await caught(async () => matchesFixture(c, await runTxCase(c, budget))))
    case 'call': {
      const call = c.expected.expectException ? undefined : callRequestOf(c)
      if (!call) return { kind: 'skipped' }
      let fastPath = false
      const why = await caught(async () => {
        const { fast, runTx, overridden } = await runCallPaths(c, call)
        fastPath = fast !== undefined
        const slow = callDifference(runTx, overridden)
        if (slow) return `with the pre-state as overrides: ${slow}`
        const differs = fast && callDifference(runTx, fast)
        return differs ? `fast path: ${differs}` : undefined
      })
      return { ...verdict(c, path, why), fastPath }
    }
    case 'frames': {
      const before = interpreterStats.simulated
      const why = await caught(async () =>
        matchesFixture(c, await runTxCase(c, budget, (vm) => patchSimulationEvm(vm.evm as EVM), { chainState: true })),
      )
      return { ...verdict(c, path, why), fastPath: interpreterStats.simulated > before }
    }
    case 'trace': {
      const before = interpreterStats.traced
      const why = await caught(() => traceDifference(c, budget))
      return { ...verdict(c, path, why), fastPath: interpreterStats.traced > before }
    }
    case 'reexec':
      return verdict(c, path, await caught(async () => matchesFixture(c, await reexecuteCase(c, upstream!))))
  }
}

export interface PathFigures {
  passed: number
  total: number
  /**
   * Cases the fast call path ran (it declines creations, values and access lists: runTx's path runs them); on
   * the frames and trace paths, cases whose outermost frame the interpreter ran.
   */
  fastPath: number
  expected: { id: string; why: string; reason: string }[]
  failed: { id: string; why: string }[]
}

export async function runGroupPath(cases: Case[], path: PathName, upstream?: PreStateUpstream): Promise<PathFigures> {
  const figures: PathFigures = { passed: 0, total: 0, fastPath: 0, expected: [], failed: [] }
  for (const c of cases) {
    const v = await runPath(c, path, upstream)
    if (v.kind === 'skipped') continue
    figures.total++
    if (v.fastPath) figures.fastPath++
    if (v.kind === 'passed') figures.passed++
    else if (v.kind === 'expected') figures.expected.push({ id: c.id, why: v.why, reason: v.reason })
    else figures.failed.push({ id: c.id, why: v.why })
  }
  return figures
}
