/**
 * The loop's feedback, filled at load. V8 optimises `steps` (loop.ts) during the first heavy call, from the
 * feedback its bytecode has gathered so far, and it gives a function feedback only after a few calls: paths a
 * call had not run by then (the dispatcher's opcodes at the call's start, the first compiled block, the last
 * opcode out of gas) deoptimised the loop when they came, and each deoptimisation cost another compilation
 * of it (60-220 ms of CPU on the 2-core machine, measured with --trace-deopt on loopExp). A small program that
 * runs the loop's own cases, the arithmetic handlers, a hot block and an end out of gas goes through the loop
 * a few times here instead, in a few milliseconds. No opcode of it reaches the host (state, calls, logs).
 */
import { analyse } from './analysis.js'
import { HOT } from './compile.js'
import { Frame, RUNNING } from './frame.js'
import { type Host, Touched } from './host.js'
import { steps } from './loop.js'
import type { Handler } from './table.js'

const WIDE = [0x7f, ...new Array<number>(32).fill(0xa5)]
const WIDER = [0x7f, ...new Array<number>(32).fill(0xf3)]
/** A divisor and modulus of 72 bits. */
const NINE = [0x68, ...new Array<number>(9).fill(0x3c)]
/** `op` applied to the counter and (for two-operand opcodes) to itself, result dropped. */
const unary = (op: number) => [0x80, op, 0x50]
const binary = (op: number) => [0x80, 0x81, op, 0x50]
/** On wide words (the counter is small): the divisions' and modular opcodes' paths for more than 32 bits. */
const wide = (op: number, arity: number) => [...NINE, ...(arity === 3 ? WIDE : []), ...WIDER, op, 0x50]
const push2 = (n: number) => [0x61, n >> 8, n & 0xff]

/**
 * The loop's cases and the arithmetic handlers once, a JUMPI not taken and one taken, then a short loop that
 * runs until the gas is gone: its block gets compiled (HOT entries) and its function runs.
 */
function program(): Uint8Array {
  const once = [
    ...[0x60, 0x00, 0x35, 0x50, 0x36, 0x50, 0x34, 0x50, 0x5f, 0x50], // CALLDATALOAD CALLDATASIZE CALLVALUE PUSH0
    ...[0x60, 0x01, 0x60, 0x40, 0x52], // MSTORE through its handler (memory expands)
    ...[0x60, 0x01], // the counter
    ...[0x60, 0x40, 0x51, 0x01], // MLOAD, ADD
    ...[0x60, 0x01, 0x60, 0x40, 0x52], // MSTORE within memory paid for
    ...[0x02, 0x03, 0x10, 0x11, 0x12, 0x13, 0x14, 0x16, 0x17, 0x18].flatMap(binary),
    ...[0x15, 0x19].flatMap(unary),
    ...[0x1b, 0x1c, 0x1d, 0x1a, 0x0b, 0x04, 0x05, 0x06, 0x07].flatMap((op) => [0x80, 0x60, 0x03, op, 0x50]),
    ...[0x04, 0x05, 0x06, 0x07].flatMap((op) => wide(op, 2)),
    ...[0x08, 0x09].flatMap((op) => [...binary(op).slice(0, 2), 0x82, op, 0x50, ...wide(op, 3)]),
    ...[0x61, 0x01, 0x02, 0x50, 0x62, 0x01, 0x02, 0x03, 0x50, ...WIDE, 0x50, 0x80, 0x90, 0x50],
    ...[0x80, 0x60, 0x05, 0x0a, 0x50, ...WIDE, 0x80, 0x0a, 0x50], // EXP
  ]
  const at = once.length
  const jumps = [0x60, 0x00, ...push2(at + 6), 0x57, 0x5b, 0x60, 0x01, ...push2(at + 13), 0x57, 0x5b]
  const loop = at + jumps.length
  return Uint8Array.from([...once, ...jumps, 0x5b, 0x60, 0x01, 0x01, 0x80, 0x50, ...push2(loop), 0x56])
}

/** What the opcodes run once cost, and the short loop's rounds (~25 gas each): HOT and more. */
const GAS = 5_000 + 25 * (HOT + 50)
/** The first run gets the loop its feedback (a function has it once it has run a little), the next fills it. */
const RUNS = 3

export function prime(handlers: Handler[]): void {
  const code = program()
  const account = new Touched(new Uint8Array(20), undefined)
  for (let i = 0; i < RUNS; i++) {
    const f = Frame.take(undefined as unknown as Host, code, analyse(code), account, account.bytes, code, false, 0, GAS)
    while (f.status === RUNNING) steps(f, handlers)
    if (f.error !== 'out of gas') throw new Error(`interpreter: the priming program ended with ${f.error}`)
    f.release()
  }
}
