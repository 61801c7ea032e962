/**
 * EXP's power in WebAssembly, one call per EXP: left to right over the exponent's bits, `width` at a time
 * against a table of the base's first 2^width - 1 powers, its squares and products calls of the kernel's own
 * `sqr` and `mul` (kernel.ts). In JavaScript the same loop cost a call into the kernel per square and product
 * (loopExp d8: 14 per EXP of an 8-bit exponent), more than the products themselves.
 */
import { bin, type Code, doWhile, get, i32, i64, plus, set } from './wasm-code.js'
import { EMPTY_TYPE, op, unsigned, type WasmFunction } from './wasm-module.js'

/** The kernel's function indices of `mul` and `sqr` (their order in kernel.ts's module). */
const MUL = 0
const SQR = 1

// params: the result's byte offset, the table's (the power d at table + 32d, d ≥ 1; the base at table + 32),
// the exponent's, its bits (a multiple of 8) and the window's width (1, 2 or 4)
const R = 0
const TABLE = 1
const E = 2
const BITS = 3
const WIDTH = 4
// i32 locals
const BIT = 5
const DIGIT = 6
const STARTED = 7
const D = 8

const call = (index: number, ...args: Code[]): Code => [...args.flat(), op.call, ...unsigned(index)]
/** The table's entry `d` (an i32 expression): its byte offset. */
const entry = (d: Code): Code => bin(op.i32Add, get(TABLE), bin(op.i32Shl, d, i32(5)))
const windowSize = (): Code => bin(op.i32Shl, i32(1), get(WIDTH))

function table(): Code {
  return [
    ...set(D, i32(2)),
    op.block,
    EMPTY_TYPE,
    ...bin(op.i32GeS, get(D), windowSize()),
    op.brIf,
    0,
    ...doWhile(
      [...call(MUL, entry(get(D)), entry(plus(D, -1)), entry(i32(1))), ...set(D, plus(D, 1))],
      bin(op.i32LtS, get(D), windowSize()),
    ),
    op.end,
  ]
}

/** The exponent's `width` bits ending at bit BIT (groups never straddle two limbs: see ops-arith.ts). */
function digit(): Code {
  const limb = [...get(E), ...bin(op.i32Shl, bin(op.i32ShrU, get(BIT), i32(5)), i32(2)), op.i32Add, op.i32Load, 2, 0]
  const shift = bin(op.i32And, [...get(BIT), ...get(WIDTH), op.i32Sub, ...i32(1), op.i32Add], i32(31))
  return set(DIGIT, bin(op.i32And, bin(op.i32ShrU, limb, shift), [...windowSize(), ...i32(1), op.i32Sub]))
}

/** r = the table's entry DIGIT, 32 bytes as four i64. */
function copyEntry(): Code {
  const out: Code = []
  for (let i = 0; i < 4; i++)
    out.push(...get(R), ...entry(get(DIGIT)), op.i64Load, 3, ...unsigned(8 * i), op.i64Store, 3, ...unsigned(8 * i))
  return out
}

/** pow(r, table, e, bits, width): r = base^e mod 2^256 for a non-zero exponent. */
export function powFunction(): WasmFunction {
  const body = [
    ...table(),
    ...set(BIT, plus(BITS, -1)),
    ...set(STARTED, i32(0)),
    ...doWhile(
      [
        ...get(STARTED),
        op.if,
        EMPTY_TYPE,
        ...set(D, i32(0)),
        ...doWhile([...call(SQR, get(R), get(R)), ...set(D, plus(D, 1))], bin(op.i32LtS, get(D), get(WIDTH))),
        op.end,
        ...digit(),
        ...get(DIGIT),
        op.if,
        EMPTY_TYPE,
        ...get(STARTED),
        op.if,
        EMPTY_TYPE,
        ...call(MUL, get(R), get(R), entry(get(DIGIT))),
        op.else,
        ...copyEntry(),
        op.end,
        ...set(STARTED, i32(1)),
        op.end,
        ...set(BIT, bin(op.i32Sub, get(BIT), get(WIDTH))),
      ],
      bin(op.i32GeS, get(BIT), i32(0)),
    ),
  ]
  return { name: 'pow', params: 5, locals: 0, locals32: 4, body }
}

/** The kernel's function index of `pow` (its order in kernel.ts's module). */
const POW = 4
/** The kernel's slots exp uses: the result, and from POWERS + 1 the base's powers 1..15. */
const RESULT = 16 * 32
const POWERS = 16 * 32

/** Copies the 32 bytes at the address `from` (an i32 expression) to `to`, as four i64. */
function copyWord(to: Code, from: Code): Code {
  const out: Code = []
  for (let i = 0; i < 4; i++)
    out.push(...to, ...from, op.i64Load, 3, ...unsigned(8 * i), op.i64Store, 3, ...unsigned(8 * i))
  return out
}

/**
 * exp(e, t): the word at e becomes (word at t) ** (word at e) mod 2^256; returns the exponent's length in
 * bytes (EXP's gas: the handler charges it after, a frame out of gas failing whatever its stack holds). Four
 * bits at a time against a table of the base's first 15 powers when the exponent is longer than two bytes;
 * below, where that table costs more than it saves, two bits at a time (a table of 3) when at least half its
 * bits are set, else one. bytes * 8 - 1 is 3 modulo 4: the groups never straddle two limbs.
 */
export function expFunction(): WasmFunction {
  const [E, T, BYTES, I, X] = [0, 1, 2, 3, 4]
  const limb = [...get(E), ...bin(op.i32Shl, get(I), i32(2)), op.i32Add, op.i32Load, 2, 0]
  // the top limb not zero, and its significant bytes: (32 - leading zeros + 7) / 8
  const length = [
    ...set(BYTES, i32(0)),
    ...set(I, i32(7)),
    op.block,
    EMPTY_TYPE,
    ...doWhile(
      [
        ...set(X, limb),
        ...get(X),
        op.if,
        EMPTY_TYPE,
        ...set(
          BYTES,
          bin(
            op.i32Add,
            bin(op.i32Shl, get(I), i32(2)),
            bin(op.i32ShrU, bin(op.i32Sub, i32(39), [...get(X), op.i32Clz]), i32(3)),
          ),
        ),
        op.br,
        2,
        op.end,
        ...set(I, plus(I, -1)),
      ],
      bin(op.i32GeS, get(I), i32(0)),
    ),
    op.end,
  ]
  // up to two bytes (limb 0): two bits at a time when at least half the bits are set (0xff: 11 products, not 14)
  const setBits = [...get(E), op.i32Load, 2, 0, op.i32Popcnt]
  const twoOrOne = [
    ...i32(2),
    ...i32(1),
    ...bin(op.i32GeS, bin(op.i32Shl, setBits, i32(1)), bin(op.i32Shl, get(BYTES), i32(3))),
    op.select,
  ]
  const one: Code = []
  for (let i = 0; i < 4; i++) one.push(...get(E), ...i64(i === 0 ? 1n : 0n), op.i64Store, 3, ...unsigned(8 * i))
  const body = [
    ...length,
    ...get(BYTES),
    op.i32Eqz,
    op.if,
    EMPTY_TYPE,
    // x ** 0 = 1
    ...one,
    ...i32(0),
    op.return,
    op.end,
    ...copyWord(i32(POWERS + 32), get(T)),
    ...call(POW, i32(RESULT), i32(POWERS), get(E), bin(op.i32Shl, get(BYTES), i32(3)), [
      ...i32(4),
      ...twoOrOne,
      ...bin(op.i32GtS, get(BYTES), i32(2)),
      op.select,
    ]),
    ...copyWord(get(E), i32(RESULT)),
    ...get(BYTES),
  ]
  return { name: 'exp', params: 2, results: 1, locals: 0, locals32: 3, body }
}
