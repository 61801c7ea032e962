/**
 * The length FastLZ (level 1, as Solady's LibZip.flzCompress) would compress `input` to, without building
 * the output: the Fjord L1-cost estimator only needs the size (specs/protocol/fjord/exec-engine.md). The
 * GasPriceOracle computes the same in Solidity (contracts/GasPriceOracle.sol), so both must stay in step.
 */

const HASH_LOG = 13
const HASH_SIZE = 1 << HASH_LOG
const MAX_DISTANCE = 0x1fff
/** Bytes at the end a match search never starts in (FastLZ keeps them as literals). */
const TAIL = 13

/**
 * The hash table, kept between calls (a fresh 32 KB table per transaction was most of the cost, in
 * allocation and GC): an entry counts only if stamped with this call's generation, else it reads as 0, as
 * a new table would.
 */
const positions = new Uint32Array(HASH_SIZE)
const stamps = new Uint32Array(HASH_SIZE)
let generation = 0

export function flzCompressLength(input: Uint8Array): number {
  if (++generation === 0x1_0000_0000) {
    stamps.fill(0)
    generation = 1
  }
  const get = (h: number) => (stamps[h] === generation ? positions[h]! : 0)
  const set = (h: number, position: number) => {
    positions[h] = position
    stamps[h] = generation
  }
  const u24 = (i: number) => input[i]! | (input[i + 1]! << 8) | (input[i + 2]! << 16)
  const hash = (v: number) => (Math.imul(v, 0x9e3779b9) >>> (32 - HASH_LOG)) & (HASH_SIZE - 1)
  let size = 0
  const literals = (run: number) => {
    size += 33 * Math.floor(run / 32)
    if (run % 32) size += (run % 32) + 1
  }
  const match = (length: number) => {
    const l = length - 1
    size += 3 * Math.floor(l / 262)
    size += l % 262 >= 6 ? 3 : 2
  }
  const limit = input.length < TAIL ? 0 : input.length - TAIL
  let anchor = 0
  let ip = 2
  while (ip < limit) {
    let ref = 0
    for (;;) {
      const seq = u24(ip)
      const h = hash(seq)
      ref = get(h)
      set(h, ip)
      const distance = ip - ref
      if (ip >= limit) break
      ip++
      if (distance <= MAX_DISTANCE && seq === u24(ref)) break
    }
    if (ip >= limit) break
    ip--
    if (ip > anchor) literals(ip - anchor)
    // LibZip counts the first differing byte into the match length, and so does the fee formula
    let length = 0
    const end = limit + 9 - (ip + 3)
    for (; length < end; length++) {
      if (input[ref + 3 + length] !== input[ip + 3 + length]) {
        length++
        break
      }
    }
    match(length)
    ip += length
    set(hash(u24(ip)), ip)
    ip++
    set(hash(u24(ip)), ip)
    ip++
    anchor = ip
  }
  literals(input.length - anchor)
  return size
}
