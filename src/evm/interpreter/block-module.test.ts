import { expect, test } from 'vitest'
import { make } from './block-module.js'

/** A block body that answers `k` (i32.const k, signed LEB128): each k is a module of its own bytes. */
function answering(k: number): number[] {
  const out = [0x41]
  for (let v = k; ; ) {
    const byte = v & 0x7f
    v >>= 7
    const done = (v === 0 && (byte & 0x40) === 0) || (v === -1 && (byte & 0x40) !== 0)
    out.push(done ? byte : byte | 0x80)
    if (done) return out
  }
}

test('the modules made are kept by their bytes up to 8 192, then the cache starts again and every module still answers right', () => {
  const first = make([answering(-1), answering(1_000_000)])
  expect(first.map((f) => f(0, 0))).toEqual([-1, 1_000_000])
  // the same blocks again (another contract with the same loop, the code read anew): the functions made before
  expect(make([answering(-1), answering(1_000_000)])).toBe(first)
  // many distinct hot loops, as many contracts would bring
  for (let k = 0; k < 8_192; k++) {
    const [fn] = make([answering(k)])
    if (fn!(0, 0) !== k) expect.fail(`module ${k} answered ${fn!(0, 0)}`)
  }
  // the cache did not grow past its cap: the first module was let go and is made again, and still right
  const again = make([answering(-1), answering(1_000_000)])
  expect(again).not.toBe(first)
  expect(again.map((f) => f(0, 0))).toEqual([-1, 1_000_000])
  expect(make([answering(-1), answering(1_000_000)])).toBe(again)
})
