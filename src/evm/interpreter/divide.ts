/**
 * Unsigned division of limb words without BigInt: Knuth's algorithm D on 16-bit digits held in doubles (every
 * intermediate stays below 2^53). DIV and MOD by a divisor of any size, and MULMOD/ADDMOD, whose dividend is
 * the 512-bit product or the 257-bit sum.
 */
const B = 65536
/** Dividend (up to 512 bits and the normalisation's extra digit), divisor, quotient: 16-bit digits. */
const u = new Float64Array(34)
const v = new Float64Array(16)
const q = new Float64Array(33)

/** Loads the word at `a` of `s` into `out` as 16 digits; the count of significant digits. */
function digits(s: Uint32Array, a: number, out: Float64Array, at: number): number {
  let n = 0
  for (let i = 0; i < 8; i++) {
    const x = s[a + i]!
    out[at + 2 * i] = x & 0xffff
    out[at + 2 * i + 1] = x >>> 16
    if (x !== 0) n = at + 2 * i + (x >>> 16 !== 0 ? 2 : 1)
  }
  return n
}

function store(src: Float64Array, s: Uint32Array, r: number): void {
  for (let i = 0; i < 8; i++) s[r + i] = src[2 * i]! + src[2 * i + 1]! * B
}

/**
 * Divides the `ulen` digits in `u` by the `n` digits in `v` (v[n-1] != 0, n ≥ 1): the quotient in `q`, the
 * remainder left in `u`'s low n digits.
 */
function divideDigits(ulen: number, n: number): void {
  q.fill(0)
  if (ulen < n) return
  if (n === 1) {
    const d = v[0]!
    let rem = 0
    for (let i = ulen - 1; i >= 0; i--) {
      const cur = rem * B + u[i]!
      q[i] = Math.floor(cur / d)
      rem = cur - q[i]! * d
      u[i] = 0
    }
    u[0] = rem
    return
  }
  // normalise: the divisor's top digit gets its top bit set
  let shift = 0
  while (v[n - 1]! * 2 ** shift < B / 2) shift++
  const k = 2 ** shift
  let carry = 0
  for (let i = 0; i < n; i++) {
    const x = v[i]! * k + carry
    v[i] = x % B
    carry = Math.floor(x / B)
  }
  carry = 0
  for (let i = 0; i < ulen; i++) {
    const x = u[i]! * k + carry
    u[i] = x % B
    carry = Math.floor(x / B)
  }
  u[ulen] = carry
  const top = v[n - 1]!
  const second = v[n - 2]!
  for (let j = ulen - n; j >= 0; j--) {
    const num = u[j + n]! * B + u[j + n - 1]!
    let qhat = Math.floor(num / top)
    let rhat = num - qhat * top
    while (qhat >= B || qhat * second > rhat * B + u[j + n - 2]!) {
      qhat--
      rhat += top
      if (rhat >= B) break
    }
    let borrow = 0
    let mulCarry = 0
    for (let i = 0; i < n; i++) {
      const p = qhat * v[i]! + mulCarry
      mulCarry = Math.floor(p / B)
      let t = u[i + j]! - (p - mulCarry * B) - borrow
      borrow = t < 0 ? 1 : 0
      if (t < 0) t += B
      u[i + j] = t
    }
    let t = u[j + n]! - mulCarry - borrow
    if (t < 0) {
      // qhat was one too large: add the divisor back
      u[j + n] = t + B
      qhat--
      let c = 0
      for (let i = 0; i < n; i++) {
        const sum = u[i + j]! + v[i]! + c
        u[i + j] = sum % B
        c = sum >= B ? 1 : 0
      }
      u[j + n] = (u[j + n]! + c) % B
    } else u[j + n] = t
    q[j] = qhat
  }
  // the remainder, back from the normalised scale
  let rest = 0
  for (let i = n - 1; i >= 0; i--) {
    const x = rest * B + u[i]!
    u[i] = Math.floor(x / k)
    rest = x - u[i]! * k
  }
  for (let i = n; i <= ulen; i++) u[i] = 0
}

/** q = a / b and r = a % b of the words at `a` and `b` (b ≠ 0); either result offset may be -1 (not wanted). */
export function divmod(s: Uint32Array, a: number, b: number, quotient: number, remainder: number): void {
  u.fill(0)
  v.fill(0)
  const ulen = digits(s, a, u, 0)
  const n = digits(s, b, v, 0)
  divideDigits(ulen, n)
  if (quotient >= 0) store(q, s, quotient)
  if (remainder >= 0) store(u, s, remainder)
}

/** r = (a * b) % m of the words at `a`, `b`, `m` (m ≠ 0), through the full 512-bit product. */
export function mulmod(s: Uint32Array, a: number, b: number, m: number, r: number): void {
  const x = q
  const y = v
  x.fill(0)
  y.fill(0)
  const nx = digits(s, a, x, 0)
  const ny = digits(s, b, y, 0)
  u.fill(0)
  for (let i = 0; i < nx; i++) {
    let carry = 0
    const xi = x[i]!
    for (let j = 0; j < ny; j++) {
      const t = xi * y[j]! + u[i + j]! + carry
      carry = Math.floor(t / B)
      u[i + j] = t - carry * B
    }
    u[i + ny] = carry
  }
  let ulen = nx + ny
  while (ulen > 0 && u[ulen - 1] === 0) ulen--
  v.fill(0)
  const n = digits(s, m, v, 0)
  divideDigits(ulen, n)
  store(u, s, r)
}

/** r = (a + b) % m (m ≠ 0), through the 257-bit sum. */
export function addmod(s: Uint32Array, a: number, b: number, m: number, r: number): void {
  q.fill(0)
  u.fill(0)
  digits(s, a, u, 0)
  digits(s, b, q, 0)
  let carry = 0
  for (let i = 0; i < 16; i++) {
    const t = u[i]! + q[i]! + carry
    carry = t >= B ? 1 : 0
    u[i] = t - carry * B
  }
  u[16] = carry
  let ulen = 17
  while (ulen > 0 && u[ulen - 1] === 0) ulen--
  v.fill(0)
  const n = digits(s, m, v, 0)
  divideDigits(ulen, n)
  store(u, s, r)
}
