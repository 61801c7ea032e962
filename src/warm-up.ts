/**
 * Calls the CLI's service makes to itself just after start-up, in the background: a fresh process runs its
 * first eth_calls through code V8 has not compiled yet (the call path, the first EVM, state reads, the
 * interpreter's handlers and word helpers) at ~25-40 ms of main-thread CPU for a call a warm server answers
 * in ~1.5-6 and anvil in ~1 (bench/cold-calls.ts). These are calls a node of an OP Stack chain is asked
 * all the time: the GasPriceOracle's L1 fee of a transaction (its FastLZ size estimate: memory, shifts,
 * byte arithmetic, the L1Block's slots read by a STATICCALL), each with calldata and a gas limit of its
 * own so the call memo answers none (WARM_UP_CALLS says how many). One at a time, each after the event loop's pending work, so a user's
 * request never waits behind more than one of them; stopped by the first failure (a closing service).
 * V8 flags were measured instead (--always-sparkplug, --no-lazy-feedback-allocation, --interrupt-budget):
 * none lowered the first call's main-thread CPU beyond the noise of a loaded machine.
 */
import { setLengthLeft, utf8ToBytes } from '@ethereumjs/util'
import type { Chain } from './chain/chain.js'
import { keccak256 } from './evm/crypto.js'
import { WARM_UP_CALLS } from './limits.js'
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

export function warmUp(chain: Chain): void {
  let i = 0
  const next = (): void => {
    if (i >= WARM_UP_CALLS) return
    const request = { to: GAS_PRICE_ORACLE, data: getL1FeeCall(payload(40 + 16 * i, i)), gas: 2_000_000n + BigInt(i) }
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
