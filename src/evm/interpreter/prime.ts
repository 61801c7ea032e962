/**
 * The interpreter's feedback, filled at load. V8 optimises `steps` (loop.ts) during the first heavy call, from
 * the feedback its bytecode has gathered so far, and it gives a function feedback only after a few calls:
 * paths a call had not run by then deoptimised the loop when they came (an opcode's case first met, an add
 * first met with limbs above 2^31, a frame's first child call or end), and each deoptimisation cost another
 * compilation of it (60-220 ms of CPU on the 2-core machine, measured with --trace-deopt on loopExp). Small
 * programs run the loop's cases and the handlers here instead, on small and on wide words, through a
 * throwaway host: storage and transient storage (cold, warm, numbered and hashed slots, every SSTORE price),
 * memory and copies, KECCAK256, the account reads, and child frames by each kind of call that return,
 * revert and fail; then a short loop that runs until the gas is gone, whose block gets compiled (HOT
 * entries). Their state is a fixed one of this file's (PrimingSource): nothing of a chain is read or written.
 */
import type { Block } from '@ethereumjs/block'
import type { EVM } from '@ethereumjs/evm'
import { Account, type Address } from '@ethereumjs/util'
import type { Budget } from '../execution/budget.js'
import type { StateSource } from '../execution/call-state.js'
import { analyse, HOT } from './analysis.js'
import { Frame } from './frame.js'
import { Host } from './host.js'
import { Journal } from './journal.js'

/** An item of a priming program: a byte, a label's position, or a PUSH2 of a label's position. */
type Item = number | { at: string } | { to: string }

/** The program's bytes, labels resolved (every label is reached by a PUSH2). */
export function assemble(items: Item[]): Uint8Array {
  const labels = new Map<string, number>()
  let pc = 0
  for (const item of items) {
    if (typeof item === 'number') pc++
    else if ('at' in item) labels.set(item.at, pc)
    else pc += 3
  }
  const out: number[] = []
  for (const item of items) {
    if (typeof item === 'number') out.push(item)
    else if ('to' in item) {
      const target = labels.get(item.to)!
      out.push(0x61, target >> 8, target & 0xff)
    }
  }
  return Uint8Array.from(out)
}

const word = (byte: number) => [0x7f, ...new Array<number>(32).fill(byte)]
const WIDE = word(0xa5)
const WIDER = word(0xf3)
const ONES = word(0xff)
/** A divisor and modulus of 72 bits. */
const NINE = [0x68, ...new Array<number>(9).fill(0x3c)]
const push1 = (n: number) => [0x60, n]
const push2 = (n: number) => [0x61, n >> 8, n & 0xff]
const address = (last: number) => [0x73, ...new Array<number>(19).fill(0), last]
/** `op` applied to the counter and (for two-operand opcodes) to itself, result dropped. */
const unary = (op: number) => [0x80, op, 0x50]
const binary = (op: number) => [0x80, 0x81, op, 0x50]
/** On wide words: the divisions' and modular opcodes' paths for more than 32 bits. */
const wide = (op: number, arity: number) => [...NINE, ...(arity === 3 ? WIDE : []), ...WIDER, op, 0x50]
/** `op` on two wide words, and on a wide word and a small one each way round. */
const wideBinary = (op: number) => [
  ...[...WIDE, ...WIDER, op, 0x50],
  ...[...WIDER, ...push1(3), op, 0x50],
  ...[...push1(3), ...WIDE, op, 0x50],
]

/** The calls' targets (PrimingSource's accounts with code), and an account without any. */
export const READER = 0xc1
const WRITER = 0xc2
const FAILER = 0xc3
const NOBODY = 0xc4
export const BALANCE_OF = [0x63, 0x70, 0xa0, 0x82, 0x31]

/** ERC-20 balanceOf's shape: no value, the selector dispatched, a mapping's slot hashed and read. */
const reader = assemble([
  ...[0x34, 0x80, 0x15, { to: 'ok' }, 0x57, 0x5f, 0x80, 0xfd, { at: 'ok' }, 0x5b, 0x50],
  ...[0x5f, 0x35, ...push1(0xe0), 0x1c, ...BALANCE_OF, 0x14, { to: 'balance' }, 0x57, 0x5f, 0x80, 0xfd],
  ...[{ at: 'balance' }, 0x5b, ...push1(4), 0x35, 0x5f, 0x52, ...push1(1), ...push1(0x20), 0x52],
  ...[...push1(0x40), 0x5f, 0x20, 0x54, 0x5f, 0x52, ...push1(0x20), 0x5f, 0xf3],
])
/** Writes a slot and a log, then reverts: the journal undoes both. */
const writer = Uint8Array.from([
  ...[...push1(5), ...push1(3), 0x55], // SSTORE
  ...[...push1(9), ...push1(0x20), 0x5f, 0xa1], // LOG1
  ...[0x5f, 0x80, 0xfd], // REVERT
])
const failer = Uint8Array.from([0xfe])

/** A call of `op` (STATICCALL or DELEGATECALL, or CALL with value 0) to `to` with 0xffff gas, its flag dropped. */
export function call(op: number, to: number, args: [number, number], out: [number, number]): number[] {
  const value = op === 0xf1 ? [0x5f] : []
  const memory = [...push1(out[1]), ...push2(out[0]), ...push1(args[1]), ...push1(args[0])]
  return [...memory, ...value, ...address(to), ...push2(0xffff), op, 0x50]
}

/** The bytes of the loop that ends the outermost frame's program. */
const LOOP = 10

/** The outermost frame's program. */
function priming(): Uint8Array {
  const arithmetic = [
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
    // the same opcodes on limbs above 2^31 (numbers V8 holds as doubles, not small integers), with carries
    ...[0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x0b, 0x10, 0x11, 0x12, 0x13, 0x14, 0x16, 0x17, 0x18].flatMap(
      wideBinary,
    ),
    ...[0x1a, 0x1b, 0x1c, 0x1d].flatMap((op) => [...WIDE, ...push1(77), op, 0x50, ...WIDER, ...WIDE, op, 0x50]),
    ...[...WIDE, 0x15, 0x50, ...WIDE, 0x19, 0x50, ...ONES, ...push1(1), 0x01, 0x50, ...push1(1), 0x5f, 0x03, 0x50],
    ...[...WIDE, ...WIDER, ...ONES, 0x08, 0x50, ...WIDE, ...WIDER, ...ONES, 0x09, 0x50],
  ]
  const memory = [
    ...[...push1(0x24), 0x5f, ...push1(0x80), 0x37], // CALLDATACOPY
    ...[...push1(0x20), 0x5f, ...push2(0x100), 0x39], // CODECOPY
    ...[...WIDE, ...push1(0x40), 0x52, ...push1(0x40), 0x51, 0x50, ...push1(0xab), ...push1(0x41), 0x53],
    ...[...push1(0x40), 0x5f, 0x20, 0x50, 0x59, 0x50], // KECCAK256, MSIZE
    ...[...push1(0x20), ...push1(0x40), ...push1(0x60), 0x5e], // MCOPY
    ...[0x30, 0x50, 0x33, 0x50, 0x32, 0x50, 0x5a, 0x50, 0x58, 0x50], // ADDRESS CALLER ORIGIN GAS PC
  ]
  // PrimingSource's slots hold their number's last byte + 1 when it is even, nothing when it is odd
  const storage = [
    ...[0x5f, 0x54, 0x50, 0x5f, 0x54, 0x50, ...push1(0x40), 0x5f, 0x20, 0x54, 0x50], // cold, warm, hashed
    ...[...WIDE, 0x5f, 0x55, 0x5f, 0x5f, 0x55, ...push1(1), 0x5f, 0x55], // reset, cleared, restored
    ...[...push1(5), ...push1(1), 0x55, ...push1(5), ...push1(1), 0x55, 0x5f, 0x54, 0x50], // set, the same again
    ...[...push1(9), ...push1(3), 0x5d, ...push1(3), 0x5c, 0x50, ...push1(4), 0x5c, 0x50], // TSTORE, TLOAD
    ...[...WIDE, ...WIDER, 0x5d, ...WIDER, 0x5c, 0x50],
  ]
  const calls = [
    ...[...BALANCE_OF, ...push1(0xe0), 0x1b, ...push1(0x80), 0x52, ...push1(0x2a), ...push1(0x84), 0x52],
    ...call(0xfa, READER, [0x80, 0x24], [0x200, 0x20]),
    ...[0x3d, 0x50, ...push1(0x20), 0x5f, ...push2(0x300), 0x3e, ...push2(0x200), 0x51, 0x50], // RETURNDATA*
    ...call(0xf4, READER, [0x80, 0x24], [0x200, 0x20]),
    ...call(0xf1, WRITER, [0, 0], [0, 0]),
    ...call(0xfa, FAILER, [0, 0], [0, 0]),
    ...call(0xfa, NOBODY, [0, 0], [0, 0]),
    ...[...address(READER), 0x3b, 0x50, ...address(READER), 0x31, 0x50, 0x47, 0x50], // EXTCODESIZE BALANCE SELFBALANCE
  ]
  return assemble([
    ...arithmetic,
    ...memory,
    ...storage,
    ...calls,
    // a JUMPI not taken and one taken, then a loop until the gas is gone
    ...[0x5f, { to: 'not' }, 0x57, { at: 'not' }, 0x5b, ...push1(1), { to: 'taken' }, 0x57, { at: 'taken' }, 0x5b],
    ...[{ at: 'loop' }, 0x5b, ...push1(1), 0x01, 0x80, 0x50, { to: 'loop' }, 0x56],
  ])
}

const EMPTY = new Uint8Array(0)

/** The priming calls' state: the three callees' code, a balance, and slots that follow their numbers. */
class PrimingSource implements StateSource {
  private readonly account = new Account(0n, 10n ** 18n)

  readAccount(): Account | null {
    return this.account
  }

  readCode(address: Address): Uint8Array {
    const last = address.bytes[19]
    return last === READER ? reader : last === WRITER ? writer : last === FAILER ? failer : EMPTY
  }

  readStorage(_address: Address, key: Uint8Array): Uint8Array {
    const last = key[31]!
    return last % 2 === 0 ? Uint8Array.of(last + 1) : EMPTY
  }

  getAccount = async () => this.account
  getCode = async (address: Address) => this.readCode(address)
  getStorage = async (address: Address, key: Uint8Array) => this.readStorage(address, key)
}

/** What the opcodes run once cost, and the short loop's rounds (~25 gas each): HOT and more. */
const GAS = 200_000 + 25 * (HOT + 50)
/** The runs of the priming program: the loop's feedback is the first's, the handlers' (a few calls first) the next. */
const RUNS = 3

/**
 * Runs the priming program RUNS times; `run` runs a frame to its end (run.ts), as calls do. V8 takes the
 * feedback a function has when it decides to optimise it (in the first run's loop, after a quiet stretch),
 * so every path of the loop runs before: a short loop first (a function gets somewhere to keep feedback once
 * it has run a little: the program's first opcodes had none), and the program's loop block compiled at its
 * first entry, not its HOT-th. And the change Node makes to Uint8Array's hidden class when it makes its
 * first Buffer in C++ (a hash's digest: a Uint8Array given Buffer's prototype) is made first: code V8
 * optimised before it counted on that class having no transition, and the service's start-up (the dev
 * accounts' HMAC) threw the optimised loop away.
 */
export function prime(run: (f: Frame) => void | Promise<void>): void {
  Object.setPrototypeOf(new Uint8Array(0), Buffer.prototype)
  growJournal()
  runThrowaway(run, assemble([{ at: 'loop' }, 0x5b, { to: 'loop' }, 0x56]), 2_000)
  const code = priming()
  const program = analyse(code)
  program.hot[code.length - LOOP] = 1
  for (let i = 0; i < RUNS; i++) {
    const error = runThrowaway(run, code, GAS)
    // out of gas in the loop, whose block got compiled: every part before it ran
    if (error !== 'out of gas' || !program.prefixes[code.length - LOOP])
      throw new Error(`interpreter: the priming program ended with ${error} before its loop`)
  }
}

/**
 * A journal's words grown once, before any code reading them is optimised: the field is then known to be
 * written after construction. A call writing more slots than the first words hold (shiftCombinations: one per
 * combination) otherwise grew it during the call and threw away SLOAD's optimised code (--trace-deopt:
 * `code dependencies`).
 */
function growJournal(): void {
  const journal = new Journal()
  const first = journal.words.length
  while (journal.words.length === first) journal.alloc()
  journal.release()
}

const source = new PrimingSource()
// no precompiles, no block: the programs use neither
const evm = { precompiles: new Map() } as unknown as EVM
const callData = Uint8Array.from([...BALANCE_OF.slice(1), ...new Array<number>(32).fill(7)])

/**
 * Runs `code` in an outermost frame of `gas` over PrimingSource's state, through a host of its own (nothing
 * of a chain is read or written): its error when it failed.
 */
export function runThrowaway(
  run: (f: Frame) => void | Promise<void>,
  code: Uint8Array,
  gas: number,
): string | undefined {
  const budget: Budget = { sliceEnd: Infinity, deadline: Infinity, timeoutMs: 0, steps: 0 }
  const host = new Host(evm, source, undefined as unknown as Block, new Uint8Array(20), budget)
  const target = host.account(new Uint8Array(20).fill(0xc0), true)
  const f = Frame.take(host, code, analyse(code), target, target.bytes, callData, false, 0, gas)
  if (run(f) !== undefined) throw new Error('interpreter: the priming program waited')
  const { error } = f
  f.release()
  host.release()
  return error
}
