/**
 * Answers of plain eth_calls kept per block. A read-only call's answer is a function of the block (its
 * header's context and the state at its root) and the request alone, and dApps ask the same views
 * (balances, prices, allowances) from many clients between two blocks: later askers on a block get an
 * earlier one's answer, and identical calls in flight together share one run. A call is kept from its second
 * ask on (doorkeeper.ts), or its first when it was asked on an earlier block: a one-off call (a new holder's
 * balance in every request) kept would only make work for the collector. Only calls whose request is a `to`,
 * calldata, `from` and `gas` are kept (fast-call.ts decides what runs without runTx); a run that throws is
 * forgotten. Bounded by CALL_MEMO_* in limits.ts; the newest blocks are kept.
 */
import type { BlockHeader } from '@ethereumjs/block'
import type { EVMResult } from '@ethereumjs/evm'
import { equalsBytes } from '@ethereumjs/util'
import { bytesMix, FNV_START } from '../../domain/map-keys.js'
import type { CallRequest } from '../../domain/call-request.js'
import { CALL_MEMO_BLOCKS, CALL_MEMO_ENTRIES, CALL_MEMO_MAX_BYTES, SEEN_IDS } from '../../limits.js'
import { BoundedMap } from '../bounded-map.js'
import { Doorkeeper } from '../doorkeeper.js'
import type { Eventually } from '../../capabilities/eventually.js'

/** What is kept of a result: output or revert data, the error and the gas used (not the frame's state). */
export type CallAnswer = {
  execResult: Pick<EVMResult['execResult'], 'returnValue' | 'exceptionError' | 'executionGasUsed'>
}

/**
 * A kept answer, or the promise of one still running (undefined: not a plain call, the caller runs it with
 * runTx, as decided the first time).
 */
type Entry = CallAnswer | Promise<CallAnswer | undefined>

/** What names a call: its request's keyed fields, `from` and `data` as the run takes them when absent. */
interface Call {
  to: Uint8Array
  from: Uint8Array
  gasLimit: bigint
  data: Uint8Array
}

/** A call kept under its id (callId), which another call may share: its own fields say which call it is. */
interface Kept extends Call {
  entry: Entry
  /** Kept once its run settles: asked before this run, or again while it ran (else forgotten then). */
  keep: boolean
}

const ZERO_ADDRESS = new Uint8Array(20)
const NO_DATA = new Uint8Array(0)
/** The fields a key holds; a request with any other field set is not kept. */
const KEYED: ReadonlySet<string> = new Set(['from', 'to', 'data', 'gas'])

function callOf(request: CallRequest, gasLimit: bigint): Call | undefined {
  const { from, to, data } = request
  if (to?.length !== 20 || (from && from.length !== 20) || (data?.length ?? 0) > CALL_MEMO_MAX_BYTES) return undefined
  for (const field in request)
    if (!KEYED.has(field) && request[field as keyof CallRequest] !== undefined) return undefined
  // `gas` is in gasLimit (capped and defaulted); from defaults to the zero address in the run
  return { to, from: from ?? ZERO_ADDRESS, gasLimit, data: data ?? NO_DATA }
}

/**
 * A number naming a call (FNV-1a of its fields, 31 bits): a Map hashes it without a string, where a key string
 * of the fields' bytes cost ~1 µs to build and hash per distinct call. Two calls may share one; sameCall tells.
 */
function callId({ to, from, gasLimit, data }: Call): number {
  const gas = Number(gasLimit)
  let h = bytesMix(bytesMix(bytesMix(FNV_START, to), from), data)
  h = Math.imul(h ^ (gas % 0x1_0000_0000), 0x01000193)
  h = Math.imul(h ^ Math.floor(gas / 0x1_0000_0000), 0x01000193)
  return h >>> 1
}

function sameCall(a: Call, b: Call): boolean {
  return (
    a.gasLimit === b.gasLimit && equalsBytes(a.data, b.data) && equalsBytes(a.to, b.to) && equalsBytes(a.from, b.from)
  )
}

export class CallMemo {
  /** Insertion order is age: the first key is the oldest block. */
  private readonly blocks = new Map<BlockHeader, BoundedMap<Kept, number>>()
  /** The ids of calls asked before, on any block. */
  private readonly asked = new Doorkeeper(SEEN_IDS)

  /** `run`'s answer for this call on this block, from memory when it was asked before. */
  answer(
    header: BlockHeader,
    request: CallRequest,
    gasLimit: bigint,
    run: () => Eventually<EVMResult | undefined>,
  ): Eventually<CallAnswer | undefined> {
    const call = callOf(request, gasLimit)
    if (call === undefined) return run()
    const id = callId(call)
    const calls = this.callsOf(header)
    const known = calls.get(id)
    if (known !== undefined && sameCall(known, call)) {
      // marked again: a call the memo answers stays known past a stream of one-offs, for the next block
      this.asked.again(id)
      known.keep = true
      return known.entry
    }
    const keep = this.asked.again(id)
    const ran = run()
    if (!(ran instanceof Promise)) {
      // answered at once: kept as the answer itself (not a plain call: nothing kept, the next asker is as quick)
      const answer = keep && ran ? kept(ran) : undefined
      if (answer) calls.set(id, { ...call, entry: answer, keep })
      return answer ?? ran
    }
    // kept while it runs, whether asked before or not: identical calls in flight share the run
    const entry: Entry = ran.then(
      (result) => {
        const answer = result && kept(result)
        // the next askers get the answer itself, without a promise (and the time limit it would take)
        if (answer) settled(calls, id, entry, answer)
        else if (result) forget(calls, id, entry)
        return answer ?? result
      },
      (err: unknown) => {
        forget(calls, id, entry)
        throw err
      },
    )
    // a full block forgets its oldest call: a burst of distinct calls must not shut newer ones out (a
    // BoundedMap: with a fresh Map iterator per eviction, each distinct call walked the deleted slots)
    calls.set(id, { ...call, entry, keep })
    return entry
  }

  private callsOf(header: BlockHeader): BoundedMap<Kept, number> {
    let calls = this.blocks.get(header)
    if (!calls) {
      this.blocks.set(header, (calls = new BoundedMap(CALL_MEMO_ENTRIES)))
      if (this.blocks.size > CALL_MEMO_BLOCKS) this.blocks.delete(this.blocks.keys().next().value!)
    }
    return calls
  }
}

/**
 * Keeps a call's settled answer in place of its promise, unless a call of the same id has taken its place since;
 * forgets it when nobody asked for it but its first asker.
 */
function settled(calls: BoundedMap<Kept, number>, id: number, entry: Entry, answer: CallAnswer): void {
  const held = calls.get(id)
  if (held?.entry !== entry) return
  if (held.keep) held.entry = answer
  else calls.delete(id)
}

/** Forgets a call that failed or is not kept, unless a call of the same id has taken its place since. */
function forget(calls: BoundedMap<Kept, number>, id: number, entry: Entry): void {
  if (calls.get(id)?.entry === entry) calls.delete(id)
}

/** What is kept of a result, or undefined when its output is too large to keep. */
function kept(result: EVMResult): CallAnswer | undefined {
  const { returnValue, exceptionError, executionGasUsed } = result.execResult
  if (returnValue.length > CALL_MEMO_MAX_BYTES) return undefined
  return { execResult: { returnValue, exceptionError, executionGasUsed } }
}
