/**
 * Expressions of WebAssembly code for the kernels' emitters (kernel.ts, kernel-div.ts, kernel-pow.ts): each
 * returns the instructions' bytes (wasm-module.ts), so a function's body reads as nested calls.
 */
import { EMPTY_TYPE, op, signed, unsigned } from './wasm-module.js'

export type Code = number[]

export const get = (local: number): Code => [op.localGet, ...unsigned(local)]
export const set = (local: number, ...value: Code[]): Code => [...value.flat(), op.localSet, ...unsigned(local)]
export const i32 = (n: number): Code => [op.i32Const, ...signed(BigInt(n))]
export const i64 = (n: bigint): Code => [op.i64Const, ...signed(n)]
/** A binary instruction on two expressions. */
export const bin = (instr: number, a: Code, b: Code): Code => [...a, ...b, instr]
/** `body` repeated while `again` (an i32 expression run after it) holds: a do-while. */
export const doWhile = (body: Code, again: Code): Code => [op.loop, EMPTY_TYPE, ...body, ...again, op.brIf, 0, op.end]
/** Local `l` (an i32) plus `n`. */
export const plus = (l: number, n: number): Code => bin(op.i32Add, get(l), i32(n))
