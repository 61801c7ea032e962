/**
 * The one call that installs what the service changes in @ethereumjs: at start-up (startService), and in the
 * tests' and benches' set-up where they make a chain themselves. It checks the pinned release, loads the
 * internal files the patches build on, checks every field they read or write, and returns what it hooked;
 * anything missing stops start-up with an EvmPatchError naming it. docs/design/evm-engine.md describes each.
 *
 * Two scopes. The call path's own EVMs (execution/fast-call.ts) get their hooks one EVM at a time
 * (`patchCallEvm`): a subclass of the shipped Interpreter, their own runInterpreter and opcode table; no
 * other EVM sees them. eth_simulateV1's VMs get theirs the same way (`interpretFrames`, interpreted-frames.ts):
 * their outermost frames on the interpreter; so does the chain's own VM, whose runTx and deposits build the
 * sequencer's blocks (`patchBlockEvm`, where create-chain.ts makes it), and a follower's VM of each block it
 * re-executes (`patchReexecutionEvm`, where follower/reexecute.ts makes it). One hook is process-wide: the time budget's step count on the shipped runStep
 * (budget-steps.ts), which runTx's calls need. `{ processWide: false }` leaves every shipped class untouched
 * (the differential tests' unpatched run, where runTx's side is @ethereumjs as published).
 */
import type { EVM } from '@ethereumjs/evm'
import type { MerkleStateManager } from '@ethereumjs/statemanager'
import { countBudgetSteps } from './budget-steps.js'
import type { HookName } from './hook-runs.js'
import { type Internals, type InterpreterClass, loadInternals } from './internals.js'
import { cacheJumpAnalysis } from './jump-analysis.js'
import { interpretFrames } from './interpreted-frames.js'
import { interpreterByDefault } from '../interpreter/call.js'
import { leanFrames } from './lean-frames.js'
import { EvmPatchError } from './patch-error.js'
import { probeFields, probeInterpreter } from './probes.js'
import { writeStorageAtFlush } from './storage-at-flush.js'
import { callPathInterpreter, syncSteps } from './sync-steps.js'
import { ETHEREUMJS_VERSION, versionMismatch } from './version.js'
import { wordOpcodes } from './word-opcodes.js'

interface PatchHook {
  /** What of @ethereumjs it replaces, wraps, reads or writes. */
  touches: string
  /**
   * The call path's own EVMs only, eth_simulateV1's VMs (their EVMs one by one, where simulate.ts makes
   * them), debug_trace*'s VMs (one by one, where trace.ts and trace-call.ts make them), the chain's VM that
   * builds the blocks (where create-chain.ts makes it), a follower's VMs that re-execute its feed's blocks
   * (one per block, where follower/reexecute.ts makes it), every EVM in the process, the chain's own trie and state
   * manager (wrapped per instance where the chain is made), or a field read or written where it is used.
   */
  scope: 'call path' | 'simulation' | 'trace' | 'block building' | 'reexecution' | 'process' | 'chain state' | 'field'
  /** Its file in src/evm/patches/. */
  file: string
  /** Its count in hookRuns, for a hook that runs with the EVM. */
  counter?: HookName
}

export interface PatchReport {
  ethereumjs: string
  processWide: boolean
  hooks: PatchHook[]
}

type Unscoped = Omit<PatchHook, 'scope'>
const scoped = (scope: PatchHook['scope'], hooks: Unscoped[]): PatchHook[] => hooks.map((h) => ({ ...h, scope }))

const CALL_PATH = scoped('call path', [
  { touches: 'Interpreter.run (subclass: an await-free loop)', file: 'sync-steps.ts', counter: 'awaitFreeLoop' },
  { touches: 'Interpreter.runStep (plain opcodes without a promise)', file: 'sync-steps.ts', counter: 'syncSteps' },
  {
    touches:
      'opcodes/gas.js dynamicGasHandlers, opcodes/util.js subMemUsage, divCeil, opcodes/EIP2929.js accessStorageEIP2929',
    file: 'sync-gas.ts',
    counter: 'syncGas',
  },
  {
    touches: 'Interpreter._getValidJumpDestinations (subclass: kept per code)',
    file: 'jump-analysis.ts',
    counter: 'jumpAnalysis',
  },
  { touches: 'EVM.runInterpreter (per EVM: no runState copy)', file: 'lean-frames.ts', counter: 'leanFrames' },
  {
    touches: 'EVM._opcodeMap (opcodes/functions.js handlers replaced)',
    file: 'word-opcodes.ts',
    counter: 'wordOpcodes',
  },
  { touches: 'EVM._block, EVM._tx, EVM._loadCode, EVM.runInterpreter', file: 'top-frame.ts', counter: 'topFrame' },
  { touches: 'Journal.alwaysWarmJournal', file: 'warm-set.ts', counter: 'warmSet' },
])
const SIMULATION = scoped('simulation', [
  {
    touches:
      'EVM.runInterpreter at depth 0 (per EVM), EVM._block, EVM._tx, Journal.journal, .alwaysWarmJournal, .touchAddress',
    file: 'interpreted-frames.ts',
    counter: 'interpretedFrames',
  },
])
const TRACE = scoped('trace', [
  {
    touches:
      'EVM.runInterpreter at depth 0 (per EVM) and the same fields, on debug_trace* VMs (a replay, a traced call)',
    file: 'interpreted-frames.ts',
    counter: 'interpretedFrames',
  },
])
const BLOCK_BUILDING = scoped('block building', [
  {
    touches:
      "EVM.runInterpreter at depth 0 (the chain VM's), EVM._block, EVM._tx, EVM.events listeners, Journal.journal, .alwaysWarmJournal, .touchAddress",
    file: 'interpreted-frames.ts',
    counter: 'blockFrames',
  },
])
const REEXECUTION = scoped('reexecution', [
  {
    touches:
      "EVM.runInterpreter at depth 0 (a follower's re-execution VM's) and the same fields, over upstream-backed state",
    file: 'interpreted-frames.ts',
    counter: 'reexecutedFrames',
  },
])
const PROCESS = scoped('process', [
  {
    touches: 'Interpreter.prototype.runStep (steps counted under a budget)',
    file: 'budget-steps.ts',
    counter: 'budgetSteps',
  },
])
const CHAIN_STATE = scoped('chain state', [
  {
    touches: 'MerklePatriciaTrie.put and .shallowCopy, MerkleStateManager.putStorage (same-value writes left out)',
    file: 'unchanged-writes.ts',
  },
  {
    touches:
      'MerkleStateManager.putStorage (the storage cache only; no write-through to the trie), on debug_trace* VMs too',
    file: 'storage-at-flush.ts',
  },
])
const FIELDS = scoped('field', [
  {
    touches: 'MerkleStateManager._trie, MerkleStateManager._checkpointCount, MerkleStateManager._caches.storage',
    file: 'fields.ts',
  },
  { touches: 'Common._chainParams, Common._buildParamsCache, Common._params', file: 'fields.ts' },
  { touches: 'BlockHeader.keccakFunction, BlockHeader.prototype (call headers)', file: 'fields.ts' },
  { touches: 'a transaction’s getSenderAddress (a sender already known)', file: 'known-sender.ts' },
  {
    touches: 'EVM._optsCached, EVM._opcodes, EVM._dynamicGasHandlers, EVM._handlers, EVM._opcodeMap',
    file: 'discovery-evm.ts',
  },
  {
    touches: 'BlockBuilder.checkpointed, .transactions, .transactionResults, .transactionsTrie, .receiptTrie',
    file: 'block-builder.ts',
  },
])

interface Installed {
  report: PatchReport
  internals: Internals
  CallPathInterpreter: InterpreterClass
}

let installing: Promise<Installed> | undefined
let installed: Installed | undefined

/**
 * Installs the patches once per process and returns what they hook; a later call returns the first call's
 * report (a test's set-up installs before the service it starts does).
 */
export async function installEvmPatches(options: { processWide?: boolean } = {}): Promise<PatchReport> {
  installing ??= install(options.processWide ?? true).catch((err: unknown) => {
    installing = undefined
    throw err
  })
  return (await installing).report
}

async function install(processWide: boolean): Promise<Installed> {
  const mismatch = versionMismatch()
  if (mismatch) throw new EvmPatchError('version pin', `${mismatch}, not ${ETHEREUMJS_VERSION}`)
  const internals = await loadInternals()
  probeInterpreter(internals.Interpreter)
  await probeFields()
  // made before the process-wide hook: the call path's loop calls the shipped runStep as it found it
  const CallPathInterpreter = callPathInterpreter(internals)
  if (processWide) countBudgetSteps(internals.Interpreter)
  const hooks = [
    ...CALL_PATH,
    ...SIMULATION,
    ...TRACE,
    ...BLOCK_BUILDING,
    ...REEXECUTION,
    ...(processWide ? PROCESS : []),
    ...CHAIN_STATE,
    ...FIELDS,
  ]
  installed = { report: { ethereumjs: ETHEREUMJS_VERSION, processWide, hooks }, internals, CallPathInterpreter }
  return installed
}

function current(): Installed {
  if (!installed)
    throw new Error(
      'the EVM patches are not installed: call installEvmPatches() (src/evm/patches/install.ts) at start-up, before making a chain',
    )
  return installed
}

/** Throws unless installEvmPatches has run (the call path's EVMs are made with its hooks). */
export function assertEvmPatchesInstalled(): void {
  current()
}

/** Runs the outermost frames of `evm` (an eth_simulateV1 VM's) on the interpreter where its fork fits; whether it does. */
export function patchSimulationEvm(evm: EVM): boolean {
  current()
  return interpretFrames(evm)
}

/**
 * Runs the outermost frames of `evm` (a debug_trace* VM's: a block's replay, a traced call) on the interpreter
 * where its fork fits, unless PRECONF_EVM_INTERPRETER=0; whether it does. Tracers of interpreted frames
 * (interpreter/frame-tracer.ts) keep a traced transaction's frame there too.
 */
export function patchTraceEvm(evm: EVM): boolean {
  current()
  return interpreterByDefault() && interpretFrames(evm, 'trace')
}

/**
 * Runs the outermost frames of `evm` (the chain's VM: runTx of each transaction the sequencer includes and the
 * runCall of each deposit) on the interpreter, frame by frame where its fork fits.
 */
export function patchBlockEvm(evm: EVM): void {
  current()
  interpretFrames(evm, 'block building')
}

/**
 * Runs the outermost frames of `evm` (a follower's VM re-executing one block of its feed: runTx of each
 * transaction, the runCall of each deposit) on the interpreter, frame by frame where its fork fits. Block
 * building's rules, its own counts: the state is the upstream's, and a read it has not loaded yet is awaited
 * (and counted), never guessed.
 */
export function patchReexecutionEvm(evm: EVM): void {
  current()
  interpretFrames(evm, 'reexecution')
}

/**
 * Makes `state` (the chain's own, a debug_trace* replay's) put a slot in its storage cache only, written to
 * its trie when it flushes (storage-at-flush.ts).
 */
export function patchStateStorage(state: MerkleStateManager): void {
  current()
  writeStorageAtFlush(state)
}

/** Makes `evm` one of the call path's: its opcode table, jump analyses, loop and frames (see each file). */
export function patchCallEvm(evm: EVM): void {
  const { internals, CallPathInterpreter } = current()
  wordOpcodes(evm, internals.handlers)
  cacheJumpAnalysis(evm)
  syncSteps(evm)
  leanFrames(evm, CallPathInterpreter)
}
