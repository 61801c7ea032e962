/**
 * DIV, MOD, SDIV, SMOD, ADDMOD and MULMOD whole in WebAssembly, on words at byte addresses of the kernel's
 * memory (a frame's stack: stack-arena.ts): the operands copied (negated for a signed division) into the
 * division's area, trimmed to their significant limbs, divided there (kernel-div.ts) and the quotient or
 * remainder written (negated when its sign says) over the result's word, which may be an operand's. In
 * JavaScript the same steps were five functions V8 compiled during the first heavy call (30-60 ms of CPU).
 */
import { DIV_AREA } from './kernel-div.js'
import { bin, type Code, get, i32, i64, set } from './wasm-code.js'
import { EMPTY_TYPE, op, unsigned, type WasmFunction } from './wasm-module.js'

/** The kernel's function indices of `mulWide` and `divmod` (their order in kernel.ts's module). */
const MUL_WIDE = 2
const DIVMOD = 3
const LIMBS = [0, 1, 2, 3, 4, 5, 6, 7]
const ALIGN = 2

const loadAt = (address: Code, i: number): Code => [...address, op.i64Load32U, ALIGN, ...unsigned(4 * i)]
const storeAt = (address: Code, i: number, value: Code): Code => [
  ...address,
  ...value,
  op.i64Store32,
  ALIGN,
  ...unsigned(4 * i),
]
const extend = (x: Code): Code => [...x, op.i64ExtendI32U]
const call = (index: number, ...args: Code[]): Code => [...args.flat(), op.call, ...unsigned(index)]

/** Locals every function here has after its parameters: i64 X, CARRY, MASK, then i32 N, M, SRC, COUNT, NEG, REM. */
function locals(params: number) {
  const [X, CARRY, MASK, N, M, SRC, COUNT, NEG, REM] = Array.from({ length: 9 }, (_, i) => params + i)
  return { X: X!, CARRY: CARRY!, MASK: MASK!, N: N!, M: M!, SRC: SRC!, COUNT: COUNT!, NEG: NEG!, REM: REM! }
}
const I64_LOCALS = 3
const I32_LOCALS = 6
type Locals = ReturnType<typeof locals>

/**
 * The 8 limbs of `from` (or `count` of them, zero above) to `to`, two's complement negated when the i32
 * `negative` is 1: each limb XOR the mask, plus the carry.
 */
function copyWords(l: Locals, to: Code, from: Code, negative: Code, count?: Code): Code {
  const out = [...set(l.CARRY, extend(negative)), ...set(l.MASK, bin(op.i64Mul, get(l.CARRY), i64(0xffffffffn)))]
  for (const i of LIMBS) {
    const value =
      count === undefined
        ? loadAt(from, i)
        : [...loadAt(from, i), ...i64(0n), ...bin(op.i32LtS, i32(i), count), op.select]
    out.push(...set(l.X, bin(op.i64Add, bin(op.i64Xor, value, get(l.MASK)), get(l.CARRY))))
    out.push(...storeAt(to, i, get(l.X)), ...set(l.CARRY, bin(op.i64ShrU, get(l.X), i64(32n))))
  }
  return out
}

/** Local `into` = how many of the `count` (an i32 expression) limbs at byte `area` are significant. */
function significant(into: number, area: number, count: Code): Code {
  return [
    ...set(into, count),
    op.block,
    EMPTY_TYPE,
    op.loop,
    EMPTY_TYPE,
    ...get(into),
    op.i32Eqz,
    op.brIf,
    1,
    ...bin(op.i32Shl, get(into), i32(2)),
    op.i64Load32U,
    ALIGN,
    ...unsigned(area - 4),
    op.i64Eqz,
    op.i32Eqz,
    op.brIf,
    1,
    ...set(into, bin(op.i32Sub, get(into), i32(1))),
    op.br,
    0,
    op.end,
    op.end,
  ]
}

/**
 * The divisor at DIV_AREA.v (8 limbs) and the dividend at DIV_AREA.u (`m` limbs, an i32 expression) divided,
 * the remainder (local REM 1) or the quotient written to the word at parameter `r`, negated when local NEG is
 * 1; a zero divisor gives 0.
 */
function divideInto(l: Locals, r: number, m: Code): Code {
  const remainder = get(l.REM)
  const zero = LIMBS.flatMap((i) => storeAt(get(r), i, i64(0n)))
  return [
    ...significant(l.N, DIV_AREA.v, i32(8)),
    ...get(l.N),
    op.i32Eqz,
    op.if,
    EMPTY_TYPE,
    ...zero,
    op.return,
    op.end,
    ...significant(l.M, DIV_AREA.u, m),
    ...bin(op.i32LtS, get(l.M), get(l.N)),
    op.if,
    EMPTY_TYPE,
    // the divisor is larger: the quotient is 0 and the remainder the dividend
    ...set(l.SRC, i32(DIV_AREA.u)),
    ...set(l.COUNT, [...get(l.M), ...i32(0), ...remainder, op.select]),
    op.else,
    ...call(DIVMOD, get(l.M), get(l.N)),
    ...set(l.SRC, [...i32(DIV_AREA.r), ...i32(DIV_AREA.q), ...remainder, op.select]),
    ...set(l.COUNT, [
      ...get(l.N),
      ...bin(op.i32Add, bin(op.i32Sub, get(l.M), get(l.N)), i32(1)),
      ...remainder,
      op.select,
    ]),
    op.end,
    ...copyWords(l, get(r), get(l.SRC), get(l.NEG), get(l.COUNT)),
  ]
}

/** The sign bit of the word at the address in local `at`, as an i32 0 or 1. */
const signOf = (at: number): Code => [...get(at), op.i32Load, ALIGN, 28, ...i32(31), op.i32ShrU]

/**
 * divide(r, a, b, mode): r = a / b (mode 0, DIV), a mod b (1, MOD), signed a / b (2, SDIV) or signed a mod b
 * (3, SMOD, the dividend's sign); 0 when b is 0. Signed division divides the magnitudes and sets the sign
 * after, as the yellow paper defines it.
 */
export function divideFunction(): WasmFunction {
  const [R, A, B, MODE] = [0, 1, 2, 3]
  const l = locals(4)
  const signed = bin(op.i32ShrU, get(MODE), i32(1))
  const remainder = bin(op.i32And, get(MODE), i32(1))
  const negativeA = bin(op.i32And, signOf(A), signed)
  const negativeB = bin(op.i32And, signOf(B), signed)
  // the remainder takes the dividend's sign, the quotient the product of both
  const negative = [...negativeA, ...bin(op.i32Xor, negativeA, negativeB), ...remainder, op.select]
  // the operands stay as they are until the result is written (r may be a or b)
  const body = [
    ...set(l.NEG, negative),
    ...set(l.REM, remainder),
    ...copyWords(l, i32(DIV_AREA.u), get(A), negativeA),
    ...copyWords(l, i32(DIV_AREA.v), get(B), negativeB),
    ...divideInto(l, R, i32(8)),
  ]
  return { name: 'divide', params: 4, locals: I64_LOCALS, locals32: I32_LOCALS, body }
}

/** modular(r, a, b, n, kind): r = (a + b) mod n (kind 0, ADDMOD) or a × b mod n (1, MULMOD), 0 when n is 0. */
export function modularFunction(): WasmFunction {
  const [R, A, B, N_, KIND] = [0, 1, 2, 3, 4]
  const l = locals(5)
  const sum = [...set(l.CARRY, i64(0n))]
  for (const i of LIMBS) {
    sum.push(...set(l.X, bin(op.i64Add, bin(op.i64Add, loadAt(get(A), i), loadAt(get(B), i)), get(l.CARRY))))
    sum.push(...storeAt(i32(DIV_AREA.u), i, get(l.X)), ...set(l.CARRY, bin(op.i64ShrU, get(l.X), i64(32n))))
  }
  sum.push(...storeAt(i32(DIV_AREA.u), 8, get(l.CARRY)))
  const body = [
    ...set(l.NEG, i32(0)),
    ...set(l.REM, i32(1)),
    ...copyWords(l, i32(DIV_AREA.v), get(N_), i32(0)),
    ...get(KIND),
    op.if,
    EMPTY_TYPE,
    ...call(MUL_WIDE, i32(DIV_AREA.u), get(A), get(B)),
    // the product's 16 limbs: the significant ones counted in the division below
    ...set(KIND, i32(16)),
    op.else,
    ...sum,
    ...set(KIND, i32(9)),
    op.end,
    ...divideInto(l, R, get(KIND)),
  ]
  return { name: 'modular', params: 5, locals: I64_LOCALS, locals32: I32_LOCALS, body }
}
