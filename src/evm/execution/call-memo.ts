/**
 * Answers of plain eth_calls kept per block. A read-only call's answer is a function of the block (its
 * header's context and the state at its root) and the request alone, and dApps ask the same views
 * (balances, prices, allowances) from many clients between two blocks: the second asker on a block gets
 * the first one's answer, and identical calls in flight together share one run. Only calls whose request
 * is a `to`, calldata, `from` and `gas` are kept (fast-call.ts decides what runs without runTx); a run that
 * throws is forgotten. Bounded by CALL_MEMO_* in limits.ts; the newest blocks are kept.
 */
import type { BlockHeader } from '@ethereumjs/block'
import type { EVMResult } from '@ethereumjs/evm'
import type { CallRequest } from '../../domain/call-request.js'
import { CALL_MEMO_BLOCKS, CALL_MEMO_ENTRIES, CALL_MEMO_MAX_BYTES } from '../../limits.js'
import { byteKey } from '../../domain/map-keys.js'
import { BoundedMap } from '../bounded-map.js'
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

const ZERO_ADDRESS = byteKey(new Uint8Array(20))
/** The fields a key holds; a request with any other field set is not kept. */
const KEYED: ReadonlySet<string> = new Set(['from', 'to', 'data', 'gas'])

function keyOf(request: CallRequest, gasLimit: bigint): string | undefined {
  const { from, to, data } = request
  if (to?.length !== 20 || (from && from.length !== 20) || (data?.length ?? 0) > CALL_MEMO_MAX_BYTES) return undefined
  for (const field in request)
    if (!KEYED.has(field) && request[field as keyof CallRequest] !== undefined) return undefined
  // `gas` is in gasLimit (capped and defaulted); from defaults to the zero address in the run. Fixed widths
  // and decimal digits before the one separator: no two requests share a key, whatever bytes they hold
  return `${byteKey(to)}${from ? byteKey(from) : ZERO_ADDRESS}${gasLimit}:${data ? byteKey(data) : ''}`
}

export class CallMemo {
  /** Insertion order is age: the first key is the oldest block. */
  private readonly blocks = new Map<BlockHeader, BoundedMap<Entry>>()

  /** `run`'s answer for this call on this block, from memory when it was asked before. */
  answer(
    header: BlockHeader,
    request: CallRequest,
    gasLimit: bigint,
    run: () => Eventually<EVMResult | undefined>,
  ): Eventually<CallAnswer | undefined> {
    const key = keyOf(request, gasLimit)
    if (key === undefined) return run()
    const calls = this.callsOf(header)
    const known = calls.get(key)
    if (known) return known
    const ran = run()
    if (!(ran instanceof Promise)) {
      // answered at once: kept as the answer itself (not a plain call: nothing kept, the next asker is as quick)
      const answer = ran && kept(ran)
      if (answer) calls.set(key, answer)
      return answer ?? ran
    }
    const entry = ran.then(
      (result) => {
        const answer = result && kept(result)
        if (result && !answer) calls.delete(key)
        return answer ?? result
      },
      (err: unknown) => {
        calls.delete(key)
        throw err
      },
    )
    // a full block forgets its oldest call: a burst of distinct calls must not shut newer ones out (a
    // BoundedMap: with a fresh Map iterator per eviction, each distinct call walked the deleted slots)
    calls.set(key, entry)
    return entry
  }

  private callsOf(header: BlockHeader): BoundedMap<Entry> {
    let calls = this.blocks.get(header)
    if (!calls) {
      this.blocks.set(header, (calls = new BoundedMap(CALL_MEMO_ENTRIES)))
      if (this.blocks.size > CALL_MEMO_BLOCKS) this.blocks.delete(this.blocks.keys().next().value!)
    }
    return calls
  }
}

/** What is kept of a result, or undefined when its output is too large to keep. */
function kept(result: EVMResult): CallAnswer | undefined {
  const { returnValue, exceptionError, executionGasUsed } = result.execResult
  if (returnValue.length > CALL_MEMO_MAX_BYTES) return undefined
  return { execResult: { returnValue, exceptionError, executionGasUsed } }
}
