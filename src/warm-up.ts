/**
 * Calls the CLI's service makes to itself just after start-up, in the background: a fresh process runs its
 * first eth_calls through code V8 has not compiled yet (the call path, the first EVM, state reads, the
 * interpreter's handlers and word helpers) at ~25-40 ms of main-thread CPU for a call a warm server answers
 * in ~1.5-6 and anvil in ~1 (bench/cold-calls.ts). These are calls a node of an OP Stack chain is asked
 * all the time: the GasPriceOracle's L1 fee of a transaction (its FastLZ size estimate: memory, shifts,
 * byte arithmetic, the L1Block's slots read by a STATICCALL), each with calldata and a gas limit of its
 * own so the call memo answers none (WARM_UP_CALLS says how many), and WARM_UP_WIDE_CALLS with a batch's
 * worth of calldata to an address without code (the calldata's intrinsic gas loop). Then the interpreter's arithmetic (DIV,
 * MOD, MULMOD, EXP and the rest on words of every width), which those calls and ordinary traffic barely run
 * but a quote or a pricing library's call runs thousands of times: WARM_UP_HEAT_SLICES slices of heat.ts's
 * loop, until V8 has optimised its helpers. One at a time, each after the event loop's pending work, so a
 * user's request never waits behind more than one of them (a call: ~1-6 ms; a slice: ~1 ms once hot, the
 * first few 5-20); the calls stop at the first failure (a closing service).
 * V8 flags were measured instead (--always-sparkplug, --no-lazy-feedback-allocation, --interrupt-budget):
 * none lowered the first call's main-thread CPU beyond the noise of a loaded machine.
 */
import { setLengthLeft, utf8ToBytes } from '@ethereumjs/util'
import type { Chain } from './chain/chain.js'
import { keccak256 } from './evm/crypto.js'
import { interpreterByDefault } from './evm/interpreter/call.js'
import { heatSlice } from './evm/interpreter/run.js'
import { WARM_UP_CALLS, WARM_UP_HEAT_SLICES, WARM_UP_WIDE_CALLS } from './limits.js'
import { GAS_PRICE_ORACLE } from './opstack/addresses.js'

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

export function warmUp(chain: Chain): void {
  let i = 0
  const next = (): void => {
    if (i >= WARM_UP_CALLS + WARM_UP_WIDE_CALLS) {
      if (interpreterByDefault()) setImmediate(heatNext, 0)
      return
    }
    const request =
      i < WARM_UP_CALLS
        ? { to: GAS_PRICE_ORACLE, data: getL1FeeCall(payload(40 + 16 * i, i)), gas: 2_000_000n + BigInt(i) }
        : { to: NO_CODE, data: payload(WIDE_BYTES, i), gas: 2_000_000n + BigInt(i) }
    i++
    Promise.resolve()
      .then(() => chain.executor.call(chain.store.latest(), request))
      .then(
        () => setImmediate(next),
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
