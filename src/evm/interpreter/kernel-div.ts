/**
 * Division of up to 16 32-bit limbs by up to 8 in WebAssembly (Knuth's algorithm D, TAOCP 4.3.1, as Hacker's
 * Delight's divmnu writes it): the quotient digit estimated from the top two limbs by i64 division, corrected
 * against the divisor's second limb, then multiplied and subtracted, added back in the rare case it was one
 * too large. JavaScript has no exact 64-by-32-bit division (doubles hold 53 bits),
 * which is what kept DIV, MOD, ADDMOD and MULMOD on BigInt. The function's code is emitted here (kernel.ts
 * puts it in its module); its operands and results are at fixed places of the kernel's memory (DIV_AREA).
 */
import { bin, type Code, doWhile, get, i32, i64, plus, set } from './wasm-code.js'
import { EMPTY_TYPE, I32_TYPE, op, unsigned, type WasmFunction } from './wasm-module.js'

/** Byte offsets in the kernel's memory, past its word slots. */
export const DIV_AREA = {
  /** The dividend, m limbs (at most 16; the caller writes them). */
  u: 4096,
  /** The divisor, n limbs with the top one not zero. */
  v: 4224,
  /** The quotient, m - n + 1 limbs. */
  q: 4352,
  /** The remainder, n limbs. */
  r: 4480,
  /** The dividend and divisor shifted so the divisor's top bit is set (m + 1 and n limbs). */
  un: 4608,
  vn: 4736,
} as const

const B = 2n ** 32n

// params
const M = 0
const N = 1
// i64 locals
const S = 2
const VTOP = 3
const VNEXT = 4
const NUM = 5
const QHAT = 6
const RHAT = 7
const P = 8
const T = 9
const K = 10
const I64_LOCALS = 9
// i32 locals
const I = 11
const J = 12

/** Limb `index` (an i32 expression) of the array at byte offset `base`, as an i64. */
const load = (base: number, index: Code): Code => [...index, ...i32(2), op.i32Shl, op.i64Load32U, 2, ...unsigned(base)]
/** Stores the low 32 bits of `value` as limb `index` of the array at `base`. */
const store = (base: number, index: Code, value: Code): Code => [
  ...index,
  ...i32(2),
  op.i32Shl,
  ...value,
  op.i64Store32,
  2,
  ...unsigned(base),
]
const add = (a: Code, b: Code) => bin(op.i64Add, a, b)
const sub = (a: Code, b: Code) => bin(op.i64Sub, a, b)
const shl = (a: Code, b: Code) => bin(op.i64Shl, a, b)
const shr = (a: Code, b: Code) => bin(op.i64ShrU, a, b)
const mul = (a: Code, b: Code) => bin(op.i64Mul, a, b)
const idx = (...terms: number[]) => terms.slice(1).reduce((acc, l) => bin(op.i32Add, acc, get(l)), get(terms[0]!))

const { u, v, q, r, un, vn } = DIV_AREA

/** n = 1: long division by one limb, the remainder carried in NUM. */
function byOneLimb(): Code {
  return [
    ...set(NUM, i64(0n)),
    ...set(J, bin(op.i32Sub, get(M), i32(1))),
    ...doWhile(
      [
        ...set(NUM, bin(op.i64Or, shl(get(NUM), i64(32n)), load(u, get(J)))),
        ...store(q, get(J), bin(op.i64DivU, get(NUM), load(v, i32(0)))),
        ...set(NUM, bin(op.i64RemU, get(NUM), load(v, i32(0)))),
        ...set(J, bin(op.i32Sub, get(J), i32(1))),
      ],
      bin(op.i32GeS, get(J), i32(0)),
    ),
    ...store(r, i32(0), get(NUM)),
    op.return,
  ]
}

/** `to`[i] = `from`[i] << S | `from`[i - 1] >> (32 - S) for i = count - 1 down to 1, and `to`[0]. */
function shiftUp(from: number, to: number, count: number): Code {
  const high = (i: Code) => shl(load(from, i), get(S))
  return [
    ...set(I, bin(op.i32Sub, get(count), i32(1))),
    op.block,
    EMPTY_TYPE,
    ...bin(op.i32LtS, get(I), i32(1)),
    op.brIf,
    0,
    ...doWhile(
      [
        ...store(to, get(I), bin(op.i64Or, high(get(I)), shr(load(from, plus(I, -1)), sub(i64(32n), get(S))))),
        ...set(I, plus(I, -1)),
      ],
      bin(op.i32GeS, get(I), i32(1)),
    ),
    op.end,
    ...store(to, i32(0), high(i32(0))),
  ]
}

/** The estimate QHAT of the quotient's limb J, lowered while it is more than one too large. */
function estimate(): Code {
  return [
    ...set(NUM, bin(op.i64Or, shl(load(un, idx(J, N)), i64(32n)), load(un, [...idx(J, N), ...i32(1), op.i32Sub]))),
    ...set(QHAT, bin(op.i64DivU, get(NUM), get(VTOP))),
    ...set(RHAT, bin(op.i64RemU, get(NUM), get(VTOP))),
    op.block,
    EMPTY_TYPE,
    ...doWhile(
      [
        ...bin(op.i64GeU, get(QHAT), i64(B)),
        op.if,
        I32_TYPE,
        ...i32(1),
        op.else,
        ...bin(
          op.i64GtU,
          mul(get(QHAT), get(VNEXT)),
          bin(op.i64Or, shl(get(RHAT), i64(32n)), load(un, [...idx(J, N), ...i32(2), op.i32Sub])),
        ),
        op.end,
        op.i32Eqz,
        op.brIf,
        1,
        ...set(QHAT, sub(get(QHAT), i64(1n))),
        ...set(RHAT, add(get(RHAT), get(VTOP))),
      ],
      bin(op.i64LtU, get(RHAT), i64(B)),
    ),
    op.end,
  ]
}

/** un[J..J+N] -= QHAT × vn, and added back (QHAT lowered) when that went below zero. */
function multiplySubtract(): Code {
  return [
    ...set(K, i64(0n)),
    ...set(I, i32(0)),
    ...doWhile(
      [
        ...set(P, mul(get(QHAT), load(vn, get(I)))),
        ...set(T, sub(sub(load(un, idx(I, J)), get(K)), bin(op.i64And, get(P), i64(0xffffffffn)))),
        ...store(un, idx(I, J), get(T)),
        ...set(K, sub(shr(get(P), i64(32n)), bin(op.i64ShrS, get(T), i64(32n)))),
        ...set(I, plus(I, 1)),
      ],
      bin(op.i32LtS, get(I), get(N)),
    ),
    ...set(T, sub(load(un, idx(J, N)), get(K))),
    ...store(un, idx(J, N), get(T)),
    ...bin(op.i64LtS, get(T), i64(0n)),
    op.if,
    EMPTY_TYPE,
    ...set(QHAT, sub(get(QHAT), i64(1n))),
    ...set(K, i64(0n)),
    ...set(I, i32(0)),
    ...doWhile(
      [
        ...set(T, add(add(load(un, idx(I, J)), load(vn, get(I))), get(K))),
        ...store(un, idx(I, J), get(T)),
        ...set(K, shr(get(T), i64(32n))),
        ...set(I, plus(I, 1)),
      ],
      bin(op.i32LtS, get(I), get(N)),
    ),
    ...store(un, idx(J, N), add(load(un, idx(J, N)), get(K))),
    op.end,
  ]
}

/** r[i] = un[i] >> S | un[i + 1] << (32 - S), the remainder shifted back. */
function remainder(): Code {
  return [
    ...set(I, i32(0)),
    ...doWhile(
      [
        ...store(
          r,
          get(I),
          bin(op.i64Or, shr(load(un, get(I)), get(S)), shl(load(un, plus(I, 1)), sub(i64(32n), get(S)))),
        ),
        ...set(I, plus(I, 1)),
      ],
      bin(op.i32LtS, get(I), get(N)),
    ),
  ]
}

/**
 * divmod(m, n): q = u / v and r = u mod v, u of m limbs and v of n (1 ≤ n ≤ m ≤ 16, v's top limb not zero).
 * The shifted dividend's limb m, above its others, is where the shift's carry goes.
 */
export function divmodFunction(): WasmFunction {
  const body = [
    ...bin(op.i32LtS, get(N), i32(2)),
    op.if,
    EMPTY_TYPE,
    ...byOneLimb(),
    op.end,
    // the shift that sets the divisor's top bit: its top limb's leading zeros
    ...set(S, sub([...load(v, plus(N, -1)), op.i64Clz], i64(32n))),
    ...shiftUp(v, vn, N),
    ...store(un, get(M), shr(load(u, plus(M, -1)), sub(i64(32n), get(S)))),
    ...shiftUp(u, un, M),
    ...set(VTOP, load(vn, plus(N, -1))),
    ...set(VNEXT, load(vn, plus(N, -2))),
    ...set(J, bin(op.i32Sub, get(M), get(N))),
    ...doWhile(
      [...estimate(), ...multiplySubtract(), ...store(q, get(J), get(QHAT)), ...set(J, plus(J, -1))],
      bin(op.i32GeS, get(J), i32(0)),
    ),
    ...remainder(),
  ]
  return { name: 'divmod', params: 2, locals: I64_LOCALS, locals32: 2, body }
}
