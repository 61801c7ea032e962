/**
 * The interpreter's hot loop: a frame's opcodes in one synchronous function, with its pc, stack pointer and
 * gas in local variables, a basic block at a time (analysis.ts): at a block's first pc one check of its static
 * gas and stack depths, then its opcodes without any. The opcodes compiled code runs most (PUSH, DUP, SWAP,
 * POP, jumps, the cheap arithmetic and comparisons, MLOAD/MSTORE within memory already paid for) are cases of
 * one switch, which V8 turns into a jump table; every other opcode goes through the dispatch table (table.ts)
 * with the locals written back to the frame around the call. A block entered HOT times gets its opening run
 * of pure stack opcodes, and its jump, compiled into WebAssembly (compile.ts) on the frame's stack where it is
 * (stack-arena.ts), run instead of the switch from then on: loopMul d0 45-78 ms CPU by the switch, 10-12 so.
 */
import { CLOCK_EVERY } from '../execution/budget.js'
import { firstFailure, quiet } from './analysis.js'
import { compileHot, runPrefix, SPAN } from './compile.js'
import { type Frame, RUNNING } from './frame.js'
import { invalidJump } from './ops-env.js'
import type { Handler } from './table.js'
import * as w from './word.js'

/** Opcodes between two returns to the async loop (which looks at the clock under a budget), at least. */
const STEPS = CLOCK_EVERY + 1
const MLOAD_MSTORE_GAS = 3
const DEPTH_MASK = 0x7ff

/**
 * Opcodes of `f` from a block's first pc, a block at a time, until the frame ends, about STEPS have run, or a
 * handler returns a promise (a state read not cached, a child call), which it hands back for the async loop
 * to await. It always stops at a block's first pc.
 */
export function steps(f: Frame, handlers: Handler[]): void | Promise<void> {
  const { code, jumps, blockGas, blockShape, hot, prefixes } = f.program
  const length = f.code.length
  const s = f.stack
  const base = f.base
  let pc = f.pc
  let sp = f.sp
  let gas = f.gas
  let n = STEPS
  blocks: while (n > 0) {
    const shape = blockShape[pc]!
    const cost = blockGas[pc]!
    if (gas < cost || sp < (shape & DEPTH_MASK) || sp > ((shape >>> 11) & DEPTH_MASK)) {
      f.pc = pc
      f.sp = sp
      f.fail(firstFailure(code, pc, sp, gas))
      return undefined
    }
    gas -= cost
    n -= shape >>> 22
    const start = pc
    const prefix = prefixes[pc]
    if (prefix === undefined) {
      if (--hot[pc]! === 0) compileHot(f.program)
    } else if (prefix !== null && base >= 0) {
      // a destination from the stack comes as -1 - (pc × SPAN + depth), decoded without a branch (deopts: compile.ts)
      let next = runPrefix(prefix.fn, base + sp * 32, sp)
      const fromStack = next >> 31
      next ^= fromStack
      sp = next & (SPAN - 1)
      pc = (next - sp) / SPAN
      if ((fromStack & (jumps[pc]! ^ 1)) !== 0) return badJump(f, prefix.end, sp)
      if (pc !== prefix.end) continue // the function took the block's jump: pc is the next block's first
    }
    for (;;) {
      const op = code[pc]!
      const t = (sp - 1) * 8
      switch (op) {
        case 0x01: {
          const b = t - 8
          let carry = 0
          for (let i = 0; i < 8; i++) {
            const x = s[t + i]! + s[b + i]! + carry
            s[b + i] = x
            carry = x > 0xffffffff ? 1 : 0
          }
          sp--
          pc++
          continue
        }
        case 0x02:
          w.mul(s, t, t - 8, t - 8)
          sp--
          pc++
          continue
        case 0x03: {
          const b = t - 8
          let borrow = 0
          for (let i = 0; i < 8; i++) {
            const x = s[t + i]! - s[b + i]! - borrow
            s[b + i] = x
            borrow = x < 0 ? 1 : 0
          }
          sp--
          pc++
          continue
        }
        case 0x10:
          w.setSmall(s, t - 8, w.cmp(s, t, t - 8) < 0 ? 1 : 0)
          sp--
          pc++
          continue
        case 0x11:
          w.setSmall(s, t - 8, w.cmp(s, t, t - 8) > 0 ? 1 : 0)
          sp--
          pc++
          continue
        case 0x12:
          w.setSmall(s, t - 8, w.scmp(s, t, t - 8) < 0 ? 1 : 0)
          sp--
          pc++
          continue
        case 0x13:
          w.setSmall(s, t - 8, w.scmp(s, t, t - 8) > 0 ? 1 : 0)
          sp--
          pc++
          continue
        case 0x14:
          w.setSmall(s, t - 8, w.cmp(s, t, t - 8) === 0 ? 1 : 0)
          sp--
          pc++
          continue
        case 0x15:
          w.setSmall(s, t, w.isZero(s, t) ? 1 : 0)
          pc++
          continue
        case 0x16:
          for (let i = 0; i < 8; i++) s[t - 8 + i] = s[t + i]! & s[t - 8 + i]!
          sp--
          pc++
          continue
        case 0x17:
          for (let i = 0; i < 8; i++) s[t - 8 + i] = s[t + i]! | s[t - 8 + i]!
          sp--
          pc++
          continue
        case 0x18:
          for (let i = 0; i < 8; i++) s[t - 8 + i] = s[t + i]! ^ s[t - 8 + i]!
          sp--
          pc++
          continue
        case 0x19:
          for (let i = 0; i < 8; i++) s[t + i] = ~s[t + i]!
          pc++
          continue
        case 0x1b:
        case 0x1c: {
          const shift = w.small(s, t)
          const v = t - 8
          if (shift === -1 || shift >= 256) w.setSmall(s, v, 0)
          else if (op === 0x1b) w.shl(s, v, shift, v)
          else w.shr(s, v, shift, v)
          sp--
          pc++
          continue
        }
        case 0x34:
          if (f.value === 0n) w.setSmall(s, t + 8, 0)
          else w.fromBigInt(s, t + 8, f.value)
          sp++
          pc++
          continue
        case 0x35: {
          const data = f.callData
          const offset = w.saturated(s, t)
          w.fromBytes32(s, t, data, offset >= data.length ? data.length : offset)
          pc++
          continue
        }
        case 0x36:
          w.setSmall(s, t + 8, f.callData.length)
          sp++
          pc++
          continue
        case 0x50:
          sp--
          pc++
          continue
        case 0x51: {
          const offset = w.small(s, t)
          // within memory already paid for: no expansion, only the opcode's 3
          if (offset === -1 || offset + 32 > f.memWords * 32) break
          if (gas < MLOAD_MSTORE_GAS) break
          gas -= MLOAD_MSTORE_GAS
          w.fromBytes32(s, t, f.mem, offset)
          pc++
          continue blocks
        }
        case 0x52: {
          const offset = w.small(s, t)
          if (offset === -1 || offset + 32 > f.memWords * 32 || sp < 2 || gas < MLOAD_MSTORE_GAS) break
          gas -= MLOAD_MSTORE_GAS
          w.toBytes32(s, t - 8, f.mem, offset)
          sp -= 2
          pc++
          continue blocks
        }
        case 0x56: {
          const dest = w.small(s, t)
          sp--
          if (dest === -1 || dest >= length || jumps[dest] !== 1) return badJump(f, pc, sp)
          pc = dest
          continue blocks
        }
        case 0x57: {
          const dest = w.small(s, t)
          const taken = !w.isZero(s, t - 8)
          sp -= 2
          if (!taken) pc++
          else if (dest === -1 || dest >= length || jumps[dest] !== 1) return badJump(f, pc, sp)
          else pc = dest
          continue blocks
        }
        case 0x5b:
          if (pc !== start) continue blocks
          pc++
          continue
        case 0x5f:
          w.setSmall(s, t + 8, 0)
          sp++
          pc++
          continue
        case 0x60:
          w.setSmall(s, t + 8, code[pc + 1]!)
          sp++
          pc += 2
          continue
        case 0x61:
          w.setSmall(s, t + 8, (code[pc + 1]! << 8) | code[pc + 2]!)
          sp++
          pc += 3
          continue
        default: {
          if (op >= 0x62 && op <= 0x7f) {
            const size = op - 0x5f
            push(s, t + 8, code, pc + 1, size)
            sp++
            pc += size + 1
            continue
          }
          if (op >= 0x80 && op <= 0x8f) {
            w.copy(s, (sp - (op - 0x7f)) * 8, t + 8)
            sp++
            pc++
            continue
          }
          if (op >= 0x90 && op <= 0x9f) {
            w.swap(s, t, t - (op - 0x8f) * 8)
            pc++
            continue
          }
          if (quiet[op] === 1) {
            // the other opcodes that run inside a block, through the table: they neither charge nor wait
            f.pc = pc + 1
            f.sp = sp
            handlers[op]!(f)
            pc = f.pc
            sp = f.sp
            continue
          }
        }
      }
      // an opcode that ends its block, through the table (its static gas is paid with the block's)
      f.pc = pc + 1
      f.sp = sp
      f.gas = gas
      const pending = handlers[op]!(f)
      if (pending !== undefined || f.status !== RUNNING) return pending
      pc = f.pc
      sp = f.sp
      gas = f.gas
      continue blocks
    }
  }
  f.pc = pc
  f.sp = sp
  f.gas = gas
  return undefined
}

function badJump(f: Frame, pc: number, sp: number): undefined {
  // the message names the JUMP's pc, as @ethereumjs's does
  f.pc = pc + 1
  f.sp = sp
  f.fail(invalidJump(f))
  return undefined
}

/** The `size` (3-32) bytes of `code` at `from` as the word at `t`, four bytes to a limb from the end. */
function push(s: Uint32Array, t: number, code: Uint8Array, from: number, size: number): void {
  let end = from + size
  for (let i = 0; i < 8; i++) {
    if (end <= from) {
      s[t + i] = 0
      continue
    }
    const start = end - 4 > from ? end - 4 : from
    let v = 0
    for (let k = start; k < end; k++) v = v * 256 + code[k]!
    s[t + i] = v
    end = start
  }
}
