/**
 * The opcodes that read the frame, the call and the block, memory and control flow, PUSH/DUP/SWAP, KECCAK256
 * and LOG. Static gas and stack depth are checked by the loop (run.ts); the handlers here whose gas depends
 * on their operands (memory, copies, hashing, logs) charge all of it themselves.
 */
import { bytesToHex } from '@ethereumjs/util'
import { keccak256 } from '../crypto.js'
import { copyIn, type Frame } from './frame.js'
import * as w from './word.js'

type Handler = (f: Frame) => void
const INVALID_JUMP = 'invalid JUMP'
const STATIC_STATE_CHANGE = 'static state change'
const OUT_OF_GAS = 'out of gas'
const STACK_UNDERFLOW = 'stack underflow'

/** Pushes a number below 2^53. */
function pushSmall(f: Frame, v: number): void {
  w.setSmall(f.stack, f.sp * 8, v)
  f.sp++
}

function pushBytes(f: Frame, bytes: Uint8Array): void {
  w.fromBytes(f.stack, f.sp * 8, bytes, 0, bytes.length)
  f.sp++
}

function pushBig(f: Frame, v: bigint): void {
  w.fromBigInt(f.stack, f.sp * 8, v)
  f.sp++
}

const at = (f: Frame, depth: number) => (f.sp - 1 - depth) * 8
const num = (f: Frame, depth: number) => w.saturated(f.stack, at(f, depth))

/** CALLDATACOPY, CODECOPY, RETURNDATACOPY's shared part: memory, 3 + 3 per word, the copy. */
function copy(f: Frame, src: Uint8Array, checkBounds: boolean): void {
  const to = num(f, 0)
  const from = num(f, 1)
  const length = num(f, 2)
  f.sp -= 3
  if (checkBounds && from + length > src.length) {
    f.fail(OUT_OF_GAS)
    return
  }
  if (!f.expand(to, length) || !f.use(3 + 3 * Math.ceil(length / 32))) return
  if (length > 0) copyIn(f, src, from, to, length)
}

/** @ethereumjs's message for a bad jump, which names the code's hash, the address and the JUMP's pc. */
export function invalidJump(f: Frame): string {
  return `${INVALID_JUMP} at ${bytesToHex(keccak256(f.code))}/${bytesToHex(f.addressBytes)}:${f.pc - 1}`
}

function log(topics: number): Handler {
  return (f) => {
    if (f.isStatic) return f.fail(STATIC_STATE_CHANGE)
    const offset = num(f, 0)
    const length = num(f, 1)
    if (!f.expand(offset, length) || !f.use(375 + 375 * topics + 8 * length)) return
    if (f.sp < 2 + topics) return f.fail(STACK_UNDERFLOW)
    const list: Uint8Array[] = []
    for (let i = 0; i < topics; i++) {
      const topic = new Uint8Array(32)
      w.toBytes32(f.stack, at(f, 2 + i), topic, 0)
      list.push(topic)
    }
    f.sp -= 2 + topics
    const data = f.read(offset, length)
    f.host.logs.push([f.addressBytes, list, data])
    f.host.tracer?.log(f.addressBytes, list, data)
  }
}

export const environment: [number, Handler][] = [
  [
    0x20,
    (f) => {
      const offset = num(f, 0)
      const length = num(f, 1)
      if (!f.expand(offset, length) || !f.use(30 + 6 * Math.ceil(length / 32))) return
      f.sp--
      const hash = keccak256(f.mem.subarray(offset, offset + length))
      w.fromBytes32(f.stack, at(f, 0), hash, 0)
    },
  ],
  [0x30, (f) => pushBytes(f, f.addressBytes)],
  [0x32, (f) => pushBytes(f, f.host.origin)],
  [0x33, (f) => pushBytes(f, f.caller)],
  [0x37, (f) => copy(f, f.callData, false)],
  [0x38, (f) => pushSmall(f, f.code.length)],
  [0x39, (f) => copy(f, f.code, false)],
  [0x3a, (f) => pushBig(f, f.host.gasPrice)],
  [0x3d, (f) => pushSmall(f, f.returnData.length)],
  [0x3e, (f) => copy(f, f.returnData, true)],
  [0x41, (f) => pushBytes(f, f.host.block.header.coinbase.bytes)],
  [0x42, (f) => pushBig(f, f.host.block.header.timestamp)],
  [0x43, (f) => pushBig(f, f.host.block.header.number)],
  [0x44, (f) => pushBytes(f, f.host.block.header.prevRandao)],
  [0x45, (f) => pushBig(f, f.host.block.header.gasLimit)],
  [0x46, (f) => pushBig(f, f.host.evm.common.chainId())],
  [0x48, (f) => pushBig(f, f.host.block.header.baseFeePerGas ?? 0n)],
  [
    0x49,
    (f) => {
      // a call carries no blobs: every index reads zero
      w.setSmall(f.stack, at(f, 0), 0)
    },
  ],
  [0x4a, (f) => pushBig(f, f.host.block.header.getBlobGasPrice())],
  [
    0x51,
    (f) => {
      const t = at(f, 0)
      const offset = w.saturated(f.stack, t)
      if (!f.expand(offset, 32) || !f.use(3)) return
      w.fromBytes32(f.stack, t, f.mem, offset)
    },
  ],
  [
    0x52,
    (f) => {
      const offset = num(f, 0)
      if (!f.expand(offset, 32) || !f.use(3)) return
      if (f.sp < 2) return f.fail(STACK_UNDERFLOW)
      w.toBytes32(f.stack, at(f, 1), f.mem, offset)
      f.sp -= 2
    },
  ],
  [
    0x53,
    (f) => {
      const offset = num(f, 0)
      if (!f.expand(offset, 1) || !f.use(3)) return
      if (f.sp < 2) return f.fail(STACK_UNDERFLOW)
      f.mem[offset] = f.stack[at(f, 1)]!
      f.sp -= 2
    },
  ],
  [0x58, (f) => pushSmall(f, f.pc - 1)],
  [0x59, (f) => pushSmall(f, f.memWords * 32)],
  [0x5a, (f) => pushSmall(f, f.gas)],
  [
    0x5e,
    (f) => {
      const to = num(f, 0)
      const from = num(f, 1)
      const length = num(f, 2)
      f.sp -= 3
      if (!f.use(3 + 3 * Math.ceil(length / 32)) || !f.expand(from, length) || !f.expand(to, length)) return
      if (length > 0) f.mem.copyWithin(to, from, from + length)
    },
  ],
  ...Array.from({ length: 5 }, (_, i): [number, Handler] => [0xa0 + i, log(i)]),
]
