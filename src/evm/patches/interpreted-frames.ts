/**
 * Transactions with their outermost frame on the interpreter (src/evm/interpreter/), inside runTx: eth_simulateV1's
 * (scope 'simulation'), debug_trace*'s (scope 'trace': a block's replay, a traced call) and the sequencer's block
 * building (scope 'block building': runTx of each transaction and the runCall of each deposit,
 * opstack/run-deposit.ts), and a follower's re-execution of its feed's flashblocks (scope 'reexecution': the
 * same FlashBuilder over upstream-backed state). runTx keeps the transaction's own work (nonce, gas purchase and refund, the coinbase's
 * fee, EIP-161's cleanup) and runCall the outermost message's (its journal checkpoint, its value moved, its code
 * loaded, its revert or commit); only the frame runCall hands runInterpreter at depth 0 runs here, over the VM's
 * state, which it reads and does not write while it runs. Its writes then go to that state and journal as
 * @ethereumjs's own frame would have left them (interpreter/frame-writes.ts), inside runCall's checkpoint; its
 * logs, refund and gas are its result's. A frame the interpreter hands back (Fallback: CREATE, a call with value,
 * ...) has written nothing and runs on @ethereumjs from its start; so does a frame the interpreter's would not
 * match: a contract creation, a traced run (listeners of the EVM's events, which the interpreter does not emit,
 * but for a tracer of interpreted frames, interpreter/frame-tracer.ts, and for listeners that see only messages
 * moving value or creating: `onValueMessages`, `onCreationMessages`), a warm set other than the transaction's sender, recipient, coinbase and
 * precompiles (an access list's, an authorization's, a bare runCall's), code that starts 0xef, a fork whose
 * opcodes or prices are not the interpreter's. Each is counted by reason, per scope (interpreterStats).
 */
import type { Block } from '@ethereumjs/block'
import type { EVM, Message } from '@ethereumjs/evm'
import type { Address } from '@ethereumjs/util'
import { bytesToUnprefixedHex } from '@ethereumjs/util'
import type { Common } from '@ethereumjs/common'
import type { StateSource } from '../execution/call-state.js'
import { interpreterFits } from '../interpreter/call.js'
import { applyFrameWrites } from '../interpreter/frame-writes.js'
import { Fallback } from '../interpreter/host.js'
import { interpretMessage } from '../interpreter/run.js'
import { countFallback, interpreterStats } from '../interpreter/stats.js'
import { type FrameTracing, markInterpreted, tracingOf } from '../interpreter/frame-tracer.js'
import { type HookName, hookRuns } from './hook-runs.js'
import { topFrameFits } from './top-frame.js'

type RunInterpreter = EVM['runInterpreter']
/** The journal's private fields read here, typed as in @ethereumjs/evm's source (journal.ts). */
type JournalFields = {
  journal: Map<string, Set<string>>
  alwaysWarmJournal: Map<string, Set<string>>
  touchAddress(address: Address): void
}
const FRAME_EVENTS = ['step', 'beforeMessage', 'afterMessage'] as const

/** Where a hooked EVM's frames are counted, and how its fork is checked. */
interface Scope {
  /** A frame the interpreter ran. */
  ran(): void
  /** Frames handed back, by reason. */
  fallbacks: Map<string, number>
  /** The hook's run. */
  hook: HookName
  /** A VM whose blocks move it from fork to fork (a geth genesis's): its frames' fork checked one by one. */
  forkPerFrame?: true
  /** A state read the frame had to wait for, on a VM whose state may not have it at hand (upstream-backed). */
  awaited?(): void
}

const SCOPES = {
  simulation: {
    ran: () => interpreterStats.simulated++,
    fallbacks: interpreterStats.simulateFallbacks,
    hook: 'interpretedFrames',
  },
  trace: {
    ran: () => interpreterStats.traced++,
    fallbacks: interpreterStats.traceFallbacks,
    hook: 'interpretedFrames',
  },
  'block building': {
    ran: () => interpreterStats.built++,
    fallbacks: interpreterStats.buildFallbacks,
    hook: 'blockFrames',
    forkPerFrame: true,
  },
  // a follower's re-execution: block building's rules on upstream-backed state (follower/upstream-state.ts),
  // whose reads of what the upstream has not answered yet are promises the frame awaits
  reexecution: {
    ran: () => interpreterStats.reexecuted++,
    fallbacks: interpreterStats.reexecuteFallbacks,
    hook: 'reexecutedFrames',
    forkPerFrame: true,
    awaited: () => interpreterStats.reexecuteAwaitedReads++,
  },
} satisfies Record<string, Scope>
export type FrameScope = keyof typeof SCOPES

/**
 * `beforeMessage` listeners that look only at messages whose frames never run here: messages moving value (the
 * block builder's, which lists the accounts whose balances a flashblock publishes) and creations (a follower's
 * EIP-7610 check, follower/create-collision.ts). The interpreter hands back every frame that makes a call with
 * value, runs SELFDESTRUCT, CREATE or CREATE2 (ops-call.ts, table.ts), so each such message still runs on
 * @ethereumjs and reaches them; the outermost message's is emitted by runCall before its frame in any case.
 */
const handedBackListeners = new WeakSet<object>()

/** Marks `listener` as one that looks at messages moving value only (see handedBackListeners); returns it. */
export function onValueMessages<T extends object>(listener: T): T {
  handedBackListeners.add(listener)
  return listener
}

/** Marks `listener` as one that looks at creation messages only (see handedBackListeners); returns it. */
export function onCreationMessages<T extends object>(listener: T): T {
  handedBackListeners.add(listener)
  return listener
}

/**
 * Runs `evm`'s outermost frames on the interpreter (see the file's comment), each counted in `scope`; whether
 * it does. A simulation's or a trace's VM runs one fork, checked here; the chain's VM and a follower's
 * re-execution VMs move from fork to fork with their blocks (a geth genesis's), so their frames are checked
 * one by one.
 */
export function interpretFrames(evm: EVM, scope: FrameScope = 'simulation'): boolean {
  const counts: Scope = SCOPES[scope]
  if (!counts.forkPerFrame && !forkFits(evm.common)) return false
  const shipped = evm['runInterpreter']
  const interpreted: RunInterpreter = async function (this: EVM, message: Message, opts = {}) {
    if (message.depth !== 0) return shipped.call(this, message, opts)
    const tracing = tracingOf(this)
    const unfit = forkFits(this.common) ? unfitFrame(this, message, tracing) : 'a fork the interpreter does not run'
    if (unfit !== undefined) {
      countFallback(unfit, counts.fallbacks)
      tracing?.fallback()
      return shipped.call(this, message, opts)
    }
    hookRuns[counts.hook]++
    const journal = this.journal as unknown as JournalFields
    try {
      const result = await interpretMessage(
        this,
        counts.awaited ? countingAwaits(this.stateManager, counts.awaited) : this.stateManager,
        {
          // the block runTx gave runCall: a whole Block (the EVM's type names only what the EVM reads of it)
          block: this['_block'] as unknown as Block,
          caller: message.caller,
          to: message.to!,
          code: message.code as Uint8Array,
          data: message.data,
          gasLimit: message.gasLimit,
          value: message.value,
          gasPrice: this['_tx']!.gasPrice,
          tracer: tracing?.tracer,
        },
        (host, r) => {
          if (tracing?.takes?.(r) === false) throw new Fallback('traced frame the tracer does not take')
          return applyFrameWrites(this.stateManager, (a) => journal.touchAddress(a), host, r)
        },
      )
      counts.ran()
      return result
    } catch (err) {
      if (!(err instanceof Fallback)) throw err
      countFallback(err.reason, counts.fallbacks)
      tracing?.fallback()
      return shipped.call(this, message, opts)
    }
  }
  evm['runInterpreter'] = interpreted
  markInterpreted(evm)
  return true
}

/**
 * `state` as the interpreter's host reads it (its synchronous reads where it has them), each read it answers
 * with a promise counted by `awaited`: the host awaits it, so a read not at hand costs time, never an answer.
 */
function countingAwaits(state: StateSource, awaited: () => void): StateSource {
  const counted = <T>(read: T | Promise<T>): T | Promise<T> => {
    if (read instanceof Promise) awaited()
    return read
  }
  return {
    getAccount: (a) => state.getAccount(a),
    getCode: (a) => state.getCode(a),
    getStorage: (a, key) => state.getStorage(a, key),
    readAccount: (a) => counted(state.readAccount ? state.readAccount(a) : state.getAccount(a).then((x) => x ?? null)),
    readCode: (a) => counted(state.readCode ? state.readCode(a) : state.getCode(a)),
    readStorage: (a, key) => counted(state.readStorage ? state.readStorage(a, key) : state.getStorage(a, key)),
  }
}

/** Whether the fork's opcodes and prices are the interpreter's, by Common and hardfork (the check reads a dozen EIPs). */
const fitting = new WeakMap<Common, Map<string, boolean>>()
function forkFits(common: Common): boolean {
  let forks = fitting.get(common)
  if (forks === undefined) fitting.set(common, (forks = new Map()))
  const hardfork = common.hardfork()
  let fits = forks.get(hardfork)
  if (fits === undefined) forks.set(hardfork, (fits = interpreterFits(common) && topFrameFits(common)))
  return fits
}

/** Why the interpreter's frame would not be the one @ethereumjs runs here, or undefined when it would. */
function unfitFrame(evm: EVM, message: Message, tracing: FrameTracing | undefined): string | undefined {
  if (message.isCreate || message.to === undefined) return 'contract creation'
  const code = message.code
  if (!(code instanceof Uint8Array) || message.isCompiled) return 'precompile'
  if (code[0] === 0xef) return 'code starting 0xef (EOF or an EIP-7702 delegation)'
  // BLOBHASH reads zero on the interpreter, whose calls carry no blobs
  if ((message.blobVersionedHashes?.length ?? 0) > 0) return 'blob transaction'
  // a tracer of interpreted frames (frame-tracer.ts) takes runCall's message events around this frame
  const events = tracing === undefined ? FRAME_EVENTS : (['step'] as const)
  if (events.some((name) => evm.events.listeners(name).some((l) => !handedBackListeners.has(l))))
    return 'traced (EVM event listeners)'
  const tx = evm['_tx']
  if (evm['_block'] === undefined || tx === undefined || !tx.origin.equals(message.caller)) return 'not a transaction'
  const journal = evm.journal as unknown as JournalFields
  if (evm.journal.accessList !== undefined || evm.journal.preimages !== undefined) return 'access list reported'
  if (journal.journal.size > 0) return WARM_BEYOND
  return warmSetMismatch(evm, journal.alwaysWarmJournal, message)
}

const WARM_BEYOND = 'warm set beyond the transaction’s (access list, authorizations)'
const WARM_SHORT = 'warm set short of the transaction’s (a call outside runTx)'

/**
 * Why `warm` is not what runTx warms for every call and the interpreter's host warms (the sender, recipient,
 * coinbase and precompiles), or undefined when it is: short of it (a runCall of no transaction: the gasless
 * whitelist's query), or beyond it.
 */
function warmSetMismatch(evm: EVM, warm: Map<string, Set<string>>, message: Message): string | undefined {
  const own = [message.caller.bytes, message.to!.bytes, evm['_block']!.header.coinbase.bytes].map((b) =>
    bytesToUnprefixedHex(b),
  )
  if (!own.every((hex) => warm.has(hex))) return WARM_SHORT
  for (const hex of evm.precompiles.keys()) if (!warm.has(hex)) return WARM_SHORT
  for (const [hex, slots] of warm)
    if (slots.size > 0 || !(own.includes(hex) || evm.precompiles.has(hex))) return WARM_BEYOND
  return undefined
}
