/**
 * debug_trace*: replay a block's transactions on a throw-away VM from its parent's state root and trace
 * the wanted ones with the tracer the config names (struct logger by default). The time limit is the
 * config's `timeout` (a Go duration such as "5s") or TRACE_TIMEOUT_MS.
 */
import { type Block, createBlock, type BlockHeader } from '@ethereumjs/block'
import type { StateManagerInterface } from '@ethereumjs/common'
import type { EVM } from '@ethereumjs/evm'
import { Address, bytesToHex } from '@ethereumjs/util'
import { createVM, runTx, type VM } from '@ethereumjs/vm'
import { type ChainTransaction, isDeposit } from '../../../domain/deposit-transaction.js'
import { runDeposit } from '../../../opstack/run-deposit.js'
import { replayContext } from '../../../opstack/gasless.js'
import type { TraceOptions } from '../../../capabilities/execute.js'
import { TRACE_TIMEOUT_MS } from '../../../limits.js'
import { parseGoDuration } from '../../../format/go-duration.js'
import { InvalidParamsError } from '../../../errors.js'
import { commonAt, throwawayVmCommon } from '../../chain-common.js'
import { stateAt } from '../../state-views.js'
import { withTimeout } from '../time-limit.js'
import { withBudget } from '../budget.js'
import { patchStateStorage, patchTraceEvm } from '../../patches/install.js'
import { attachCallTracer } from './call-tracer.js'
import { attachPrestateTracer } from './prestate-tracer.js'
import { attachStructLogger } from './struct-logger.js'

export interface TraceEnv {
  vm: VM
  parentStateRoot: Uint8Array
  header: BlockHeader
  txs: readonly ChainTransaction[]
  /** The block's logs before each transaction's (callTracer's log `index`). */
  firstLogIndexes?: readonly number[]
  /** The parent's state where it is not in vm's trie (a follower's upstream-backed state); no prestateTracer then. */
  parentState?: StateManagerInterface
}

/** A Go duration ("1m30s", "500ms") in milliseconds; geth's tracers take a positive one. */
function parseDuration(text: string): number {
  const ms = parseGoDuration(text)
  if (ms === undefined || !(ms > 0))
    throw new InvalidParamsError(`invalid argument 1 (options): timeout ${JSON.stringify(text)} is not a duration`)
  return ms
}

/** The trace's time limit: its config's `timeout`, else TRACE_TIMEOUT_MS. */
export function traceTimeoutMs(options: TraceOptions): number {
  return options.timeout ? parseDuration(options.timeout) : TRACE_TIMEOUT_MS
}

/** Traces the transactions at `indexes` of the block (all of them for a block trace). */
export async function traceTransactions(env: TraceEnv, indexes: number[], options: TraceOptions): Promise<unknown[]> {
  const ms = traceTimeoutMs(options)
  return withTimeout(run(env, new Set(indexes), options, ms), ms)
}

/**
 * debug_traceCall's `txIndex`: the state before the block's transaction at `index` (its parent's, with the
 * transactions before it replayed), as geth's StateAtTransaction; the replay stops at `ms`, as a trace's.
 */
export async function stateBefore(env: TraceEnv, index: number, ms: number): Promise<StateManagerInterface> {
  const { vm, block } = await replayVm(env)
  await withBudget(vm.evm, ms, async () => {
    // one write of the replay's state into the trie at the commit below, not one per transaction
    await unflushed(vm)
    let gasUsed = 0n
    for (let i = 0; i < index; i++) gasUsed += (await execute(vm, env.txs[i], block, gasUsed)).totalGasSpent
    await vm.evm.journal.commit()
  })
  return vm.stateManager
}

/**
 * A throw-away VM on the parent's state under the block's fork, its outermost frames on the interpreter
 * (the replay's transactions, and a traced one where its tracer takes interpreted frames), and the block as
 * runTx takes it.
 */
async function replayVm(env: TraceEnv): Promise<{ vm: VM; block: Block }> {
  const common = commonAt(env.vm.common, env.header)
  const parent = env.parentState === undefined ? stateAt(env.vm, env.parentStateRoot) : undefined
  // its slots written to the trie only where it flushes (prestateTracer's roots), as the chain's are
  if (parent) patchStateStorage(parent)
  const vm = await createVM({
    common: throwawayVmCommon(common),
    stateManager: env.parentState ?? parent,
    blockchain: env.vm.blockchain,
  })
  patchTraceEvm(vm.evm as EVM)
  const block = createBlock({ header: env.header.toJSON() as never }, { common, skipConsensusFormatValidation: true })
  return { vm, block }
}

async function run(env: TraceEnv, wanted: Set<number>, options: TraceOptions, ms: number): Promise<unknown[]> {
  if (env.parentState && options.tracer === 'prestateTracer')
    throw new InvalidParamsError('prestateTracer needs state roots this node cannot compute for this block')
  const { vm, block } = await replayVm(env)
  await unflushed(vm)
  // the replay gives the event loop a turn every CALL_SLICE_MS and stops at the time limit, as calls do: a
  // struct log of a block-sized loop would otherwise hold the process, and grow, long after the caller gave up
  return withBudget(vm.evm, ms, () => replay(env, vm, block, wanted, options))
}

/**
 * Keeps the replay's writes in the state manager's caches: runTx commits its own checkpoint, and one at depth 0
 * writes every account and slot the transaction changed into the trie and rehashes the nodes above them (the
 * most of a long replay's CPU: 80 ERC-20 transfers before the traced one). Under a checkpoint of the throw-away
 * VM's that stays open, as the sequencer's flashblock holds one over its transactions, nothing is written: the
 * struct logger and callTracer read no state root. runTx clears the original values SSTORE prices against at
 * every transaction itself, so nothing else differs. prestateTracer reads the roots before and after its
 * transaction: it commits the checkpoint before it (one write of the replay so far) and opens one after it.
 */
async function unflushed(vm: VM): Promise<void> {
  await vm.evm.journal.checkpoint()
}

async function replay(
  env: TraceEnv,
  vm: VM,
  block: Block,
  wanted: Set<number>,
  options: TraceOptions,
): Promise<unknown[]> {
  const results: unknown[] = []
  let gasUsed = 0n
  const last = Math.max(...wanted)
  for (let i = 0; i <= last; i++) {
    const tx = env.txs[i]
    if (!wanted.has(i)) {
      gasUsed += (await execute(vm, tx, block, gasUsed)).totalGasSpent
      continue
    }
    const evm = vm.evm
    if (options.tracer === 'callTracer') {
      const tracer = attachCallTracer(evm as never, tx, options.tracerConfig ?? {})
      const r = await execute(vm, tx, block, gasUsed).finally(() => tracer.detach())
      gasUsed += r.totalGasSpent
      results.push(tracer.result(r.totalGasSpent, env.firstLogIndexes?.[i]))
    } else if (options.tracer === 'prestateTracer') {
      await vm.evm.journal.commit()
      const preRoot = await vm.stateManager.getStateRoot()
      const tracer = attachPrestateTracer(
        evm as never,
        isDeposit(tx) ? new Address(tx.deposit.from) : tx.getSenderAddress(),
        block.header.coinbase,
      )
      if (tx.to) tracer.touch(tx.to.toString())
      const r = await execute(vm, tx, block, gasUsed).finally(() => tracer.detach())
      gasUsed += r.totalGasSpent
      if (r.createdAddress) tracer.touch(r.createdAddress.toString())
      const postRoot = await vm.stateManager.getStateRoot()
      await unflushed(vm)
      results.push(
        await tracer.result(
          stateAt(env.vm, preRoot),
          stateAt(env.vm, postRoot),
          options.tracerConfig?.diffMode ?? false,
        ),
      )
    } else {
      const logger = attachStructLogger(evm as never, options)
      const r = await execute(vm, tx, block, gasUsed).finally(() => logger.detach())
      gasUsed += r.totalGasSpent
      const error = r.execResult.exceptionError
      results.push({
        gas: Number(r.totalGasSpent),
        failed: error !== undefined,
        returnValue: bytesToHex(r.execResult.returnValue),
        structLogs: logger.logs,
      })
    }
  }
  return results
}

/** runTx, or the OP Stack's deposit rules for a deposit, in the shape the tracers read. */
async function execute(vm: VM, tx: ChainTransaction, block: Block, gasUsed: bigint) {
  if (!isDeposit(tx)) {
    const context = await replayContext(vm, block, tx)
    return runTx(vm, { tx, block: context, blockGasUsed: gasUsed, skipHardForkValidation: true })
  }
  const r = await runDeposit(vm, tx.deposit, block)
  return {
    totalGasSpent: r.gasUsed,
    createdAddress: r.contractAddress && r.status === 1 ? new Address(r.contractAddress) : undefined,
    execResult: { exceptionError: r.error ?? r.failure, returnValue: r.returnValue },
  }
}
