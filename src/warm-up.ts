/**
 * Calls the CLI's service makes to itself just after start-up, in the background, through its JSON-RPC
 * dispatcher as a POST is answered (params validated and parsed, the result or the error made; not counted in
 * the metrics nor rate limited): a fresh process runs its first eth_calls through code V8 has not compiled yet
 * (the handler, the call path, the first EVM, state reads, the interpreter's handlers and word helpers) at
 * ~25-40 ms of main-thread CPU for a call a warm server answers in ~1.5-6 and anvil in ~1
 * (bench/cold-calls.ts). These are calls a node of an OP Stack chain is asked all the time: the
 * GasPriceOracle's L1 fee of a transaction (its FastLZ size estimate: memory, shifts, byte arithmetic, the
 * L1Block's slots read by a STATICCALL), each with calldata and a gas limit of its own so the call memo answers
 * none (WARM_UP_CALLS says how many); one that reverts and one out of gas (the error replies a state test's or
 * a failing simulation's call gets); and WARM_UP_WIDE_CALLS with a batch's worth of calldata to an address
 * without code (the calldata's intrinsic gas loop). Through the dispatcher, not the executor alone: a first
 * eth_call over HTTP after set-up traffic of other methods cost ~3 ms more of main-thread CPU (quote: 7.5-8.9
 * against 4.3-5.2 after two such calls, bench/cold-calls.ts, load 8-13). Then the interpreter's arithmetic (DIV,
 * MOD, MULMOD, EXP and the rest on words of every width), which those calls and ordinary traffic barely run
 * but a quote or a pricing library's call runs thousands of times: WARM_UP_HEAT_SLICES slices of heat.ts's
 * loop, until V8 has optimised its helpers. One at a time, each after the event loop's pending work, so a
 * user's request never waits behind more than one of them (a call: ~1-6 ms; a slice: ~2-4 ms once hot, the
 * first few 5-60); the calls stop at the first unexpected error (a closing service).
 * V8 flags were measured instead (--always-sparkplug, --no-lazy-feedback-allocation, --interrupt-budget):
 * none lowered the first call's main-thread CPU beyond the noise of a loaded machine.
 */
import { bytesToHex, setLengthLeft, utf8ToBytes } from '@ethereumjs/util'
import { keccak256 } from './evm/crypto.js'
import { interpreterByDefault } from './evm/interpreter/call.js'
import { heatSlice } from './evm/interpreter/run.js'
import { WARM_UP_CALLS, WARM_UP_HEAT_SLICES, WARM_UP_WIDE_CALLS } from './limits.js'
import { GAS_PRICE_ORACLE } from './opstack/addresses.js'
import type { RunningService } from './service.js'

/** getL1Fee(bytes)'s calldata, ABI-encoded here: viem is the client's optional peer, not in the service's image. */
const GET_L1_FEE = keccak256(utf8ToBytes('getL1Fee(bytes)')).subarray(0, 4)

function getL1FeeCall(tx: Uint8Array): Uint8Array {
  const padded = Math.ceil(tx.length / 32) * 32
  const out = new Uint8Array(4 + 64 + padded)
  out.set(GET_L1_FEE, 0)
  out.set(setLengthLeft(Uint8Array.of(32), 32), 4)
  out.set(setLengthLeft(Uint8Array.of(tx.length >> 8, tx.length & 0xff), 32), 36)
  out.set(tx, 68)
  return out
}

/** A transaction-like payload of `n` bytes: runs of zeros and of varied bytes, as signed transactions have. */
function payload(n: number, seed: number): Uint8Array {
  const out = new Uint8Array(n)
  let x = seed * 2654435761
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) >>> 0
    out[i] = i % 64 < 20 ? 0 : x >>> 24
  }
  return out
}

/** The wide calls' recipient: an address without code (none of the chain's predeploys or precompiles). */
const NO_CODE = new Uint8Array(20).fill(0xde)
const WIDE_BYTES = 24 * 1024

/** A selector the GasPriceOracle does not have: its call reverts. */
const UNKNOWN = Uint8Array.of(0xde, 0xad, 0xbe, 0xef)
/** Below what getL1Fee's call needs: it runs out of gas. */
const SHORT_GAS = 30_000n

interface WarmUpCall {
  to: Uint8Array
  data: Uint8Array
  gas: bigint
  /** Answered with an error on purpose (the error replies' path). */
  fails: boolean
}

/** The warm-up's eth_calls in order: L1 fees, a revert, one out of gas, then the wide ones. */
function request(i: number): WarmUpCall {
  const gas = 2_000_000n + BigInt(i)
  const fee = (n: number) => getL1FeeCall(payload(n, i))
  if (i < WARM_UP_CALLS) return { to: GAS_PRICE_ORACLE, data: fee(40 + 16 * i), gas, fails: false }
  if (i === WARM_UP_CALLS) return { to: GAS_PRICE_ORACLE, data: UNKNOWN, gas, fails: true }
  if (i === WARM_UP_CALLS + 1) return { to: GAS_PRICE_ORACLE, data: fee(40), gas: SHORT_GAS, fails: true }
  return { to: NO_CODE, data: payload(WIDE_BYTES, i), gas, fails: false }
}
const COUNT = WARM_UP_CALLS + 2 + WARM_UP_WIDE_CALLS

export function warmUp(service: Pick<RunningService, 'answer'>): void {
  let i = 0
  const next = (): void => {
    if (i >= COUNT) {
      if (interpreterByDefault()) setImmediate(heatNext, 0)
      return
    }
    const { to, data, gas, fails } = request(i)
    // as a user's POST is answered (its params validated and parsed, the reply or the error made), less the socket
    const body = {
      jsonrpc: '2.0',
      id: i,
      method: 'eth_call',
      params: [{ to: bytesToHex(to), data: bytesToHex(data), gas: `0x${gas.toString(16)}` }, 'latest'],
    }
    i++
    Promise.resolve()
      .then(() => service.answer('general', body))
      .then(
        // an error where none was asked for: a closing service
        (reply) => (!fails && reply !== undefined && 'error' in reply ? undefined : setImmediate(next)),
        () => {},
      )
  }
  setImmediate(next)
}

/**
 * The interpreter's arithmetic helpers made hot (heat.ts), a slice per turn of the event loop; a slice that
 * throws (heat.test.ts checks the loop ends as it should) ends the warm-up, never the service.
 */
function heatNext(slice: number): void {
  if (slice >= WARM_UP_HEAT_SLICES) return
  try {
    heatSlice()
  } catch {
    return
  }
  setImmediate(heatNext, slice + 1)
}
