/**
 * Path 1: runTx on the pre-state, as a block of the chain runs a transaction (the VM made as the chain makes
 * its own, on the chain's Common factory); the post-state root and the logs hash, to hold to the fixture's.
 * An invalid transaction (one the fixture expects an exception of) leaves the pre-state.
 */
import type { EVM } from '@ethereumjs/evm'
import { RLP } from '@ethereumjs/rlp'
import { bytesToHex } from '@ethereumjs/util'
import { createVM, runTx, type VM } from '@ethereumjs/vm'
import { throwawayVmCommon } from '../../../src/evm/chain-common.js'
import { keccak256 } from '../../../src/evm/crypto.js'
import { ExecutionTimeoutError } from '../../../src/errors.js'
import type { Case } from './fixtures.js'
import { blockOf, preState, stateTestCommon, testBlockHashes, txOf } from './prestate.js'

export interface TxOutcome {
  root: string
  logs: string
  /** Why the transaction was refused, if it was. */
  invalid?: string
}

/** keccak256 of the RLP list of the logs, as state tests hash them. */
export function logsHash(logs: readonly unknown[]): string {
  return bytesToHex(keccak256(RLP.encode(logs as never)))
}

/** Runs `work` on `evm` within a time budget (withBudget, which the unpatched reference run has not got). */
export type Budget = <T>(evm: EVM, work: () => Promise<T>) => Promise<T>

/**
 * `prepare`: set-up of the VM before the transaction runs (the frames path puts its outermost frame on the
 * interpreter there, as eth_simulateV1's VMs have it).
 */
export async function runTxCase(
  c: Case,
  budget: Budget = (_evm, work) => work(),
  prepare: (vm: VM) => void = () => {},
  options: { chainState?: boolean } = {},
): Promise<TxOutcome> {
  const { state, root } = await preState(c.test.pre, stateTestCommon(c.fork), options)
  const vm = await createVM({
    common: throwawayVmCommon(state.common),
    stateManager: state,
    blockchain: testBlockHashes,
  })
  prepare(vm)
  let invalid: string | undefined
  let logs = logsHash([])
  try {
    const tx = txOf(c)
    const block = blockOf(c.test, vm.common)
    const result = await budget(vm.evm as EVM, () => runTx(vm, { tx, block }))
    logs = logsHash(result.receipt.logs)
  } catch (err) {
    if (err instanceof ExecutionTimeoutError) throw err
    invalid = (err as Error).message.split(' (vm hf=')[0]
    return { root: bytesToHex(root), logs, invalid }
  }
  return { root: bytesToHex(await state.getStateRoot()), logs }
}

/** Whether the outcome is the fixture's: its root and logs, or refused where the fixture expects so. */
export function matchesFixture(c: Case, outcome: TxOutcome): string | undefined {
  if (outcome.invalid && !c.expected.expectException) return `refused: ${outcome.invalid}`
  if (!outcome.invalid && c.expected.expectException)
    return `accepted, the fixture expects ${c.expected.expectException}`
  if (outcome.root !== c.expected.hash) return `post-state root ${outcome.root}, the fixture's ${c.expected.hash}`
  if (outcome.logs !== c.expected.logs) return `logs hash ${outcome.logs}, the fixture's ${c.expected.logs}`
  return undefined
}
