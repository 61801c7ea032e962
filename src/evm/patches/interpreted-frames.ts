/**
 * eth_simulateV1's transactions, and debug_trace*'s (a block's replay, a traced call), with their outermost
 * frame on the interpreter (src/evm/interpreter/), inside runTx. runTx keeps the transaction's own work (nonce, gas purchase and refund, the coinbase's fee, EIP-161's
 * cleanup) and runCall the outermost message's (its journal checkpoint, its value moved, its code loaded, its
 * revert or commit); only the frame runCall hands runInterpreter at depth 0 runs here, over the VM's state,
 * which it reads and does not write while it runs. Its writes then go to that state and journal as
 * @ethereumjs's own frame would have left them (interpreter/frame-writes.ts), inside runCall's checkpoint;
 * its logs, refund and gas are its result's. A frame the interpreter hands back (Fallback: CREATE, a call
 * with value, ...) has written nothing and runs on @ethereumjs from its start; so does a frame the
 * interpreter's would not match: a contract creation, a traced run (listeners of the EVM's events, which
 * the interpreter does not emit, but for a tracer of interpreted frames: interpreter/frame-tracer.ts), a warm set beyond the transaction's sender, recipient, coinbase and
 * precompiles (an access list's, an authorization's), code that starts 0xef. Each is counted by reason
 * (interpreterStats.simulateFallbacks, .traceFallbacks).
 */
import type { Block } from '@ethereumjs/block'
import type { EVM, Message } from '@ethereumjs/evm'
import type { Address } from '@ethereumjs/util'
import { bytesToUnprefixedHex } from '@ethereumjs/util'
import { interpreterFits } from '../interpreter/call.js'
import { applyFrameWrites } from '../interpreter/frame-writes.js'
import { Fallback } from '../interpreter/host.js'
import { interpretMessage } from '../interpreter/run.js'
import { countFallback, interpreterStats } from '../interpreter/stats.js'
import { type FrameTracing, markInterpreted, tracingOf } from '../interpreter/frame-tracer.js'
import { hookRuns } from './hook-runs.js'
import { topFrameFits } from './top-frame.js'

type RunInterpreter = EVM['runInterpreter']
/** The journal's private fields read here, typed as in @ethereumjs/evm's source (journal.ts). */
type JournalFields = {
  journal: Map<string, Set<string>>
  alwaysWarmJournal: Map<string, Set<string>>
  touchAddress(address: Address): void
}
const FRAME_EVENTS = ['step', 'beforeMessage', 'afterMessage'] as const

/** Where each use of the hook counts its frames: those the interpreter ran, and those handed back by reason. */
const COUNTS = {
  simulation: { ran: () => interpreterStats.simulated++, fallbacks: interpreterStats.simulateFallbacks },
  trace: { ran: () => interpreterStats.traced++, fallbacks: interpreterStats.traceFallbacks },
}

/**
 * Runs `evm`'s outermost frames on the interpreter (see the file's comment) when its fork's opcodes and
 * prices are the interpreter's; whether it does.
 */
export function interpretFrames(evm: EVM, use: keyof typeof COUNTS = 'simulation'): boolean {
  if (!(interpreterFits(evm.common) && topFrameFits(evm.common))) return false
  const counts = COUNTS[use]
  const shipped = evm['runInterpreter']
  const interpreted: RunInterpreter = async function (this: EVM, message: Message, opts = {}) {
    if (message.depth !== 0) return shipped.call(this, message, opts)
    const tracing = tracingOf(this)
    const unfit = unfitFrame(this, message, tracing)
    if (unfit !== undefined) {
      countFallback(unfit, counts.fallbacks)
      tracing?.fallback()
      return shipped.call(this, message, opts)
    }
    hookRuns.interpretedFrames++
    const journal = this.journal as unknown as JournalFields
    try {
      const result = await interpretMessage(
        this,
        this.stateManager,
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
  if (events.some((name) => evm.events.listenerCount(name) > 0)) return 'traced (EVM event listeners)'
  const tx = evm['_tx']
  if (evm['_block'] === undefined || tx === undefined || !tx.origin.equals(message.caller)) return 'not a transaction'
  const journal = evm.journal as unknown as JournalFields
  if (evm.journal.accessList !== undefined || evm.journal.preimages !== undefined) return 'access list reported'
  if (journal.journal.size > 0 || !transactionsWarmSet(evm, journal.alwaysWarmJournal, message))
    return 'warm set beyond the transaction’s (access list, authorizations)'
  return undefined
}

/** Whether `warm` is what runTx warms for every call and the interpreter's host warms: no more, no less. */
function transactionsWarmSet(evm: EVM, warm: Map<string, Set<string>>, message: Message): boolean {
  const own = [message.caller.bytes, message.to!.bytes, evm['_block']!.header.coinbase.bytes].map((b) =>
    bytesToUnprefixedHex(b),
  )
  if (!own.every((hex) => warm.has(hex))) return false
  for (const hex of evm.precompiles.keys()) if (!warm.has(hex)) return false
  for (const [hex, slots] of warm) if (slots.size > 0 || !(own.includes(hex) || evm.precompiles.has(hex))) return false
  return true
}
