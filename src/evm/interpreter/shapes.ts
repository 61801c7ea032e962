/**
 * The static shape of every opcode of Cancun and Prague (their opcode sets and prices are the same): its
 * static gas (0 for the opcodes whose handler charges all of theirs), how many stack items it needs before it
 * is priced and how many it adds at most. The loop (loop.ts) checks those three before an opcode runs, a
 * basic block at a time (blocks.ts), in the order @ethereumjs's runStep meets them: static gas, then the stack.
 */

/** [opcode, static gas, items needed, items added] of every opcode with a static price (dynamic ones: 0 gas). */
const SHAPES: [number, number, number, number][] = [
  [0x00, 0, 0, 0],
  ...[0x01, 0x03, 0x10, 0x11, 0x12, 0x13, 0x14, 0x16, 0x17, 0x18, 0x1a, 0x1b, 0x1c, 0x1d].map(
    (op): [number, number, number, number] => [op, 3, 2, 0],
  ),
  ...[0x02, 0x04, 0x05, 0x06, 0x07, 0x0b].map((op): [number, number, number, number] => [op, 5, 2, 0]),
  [0x08, 8, 3, 0],
  [0x09, 8, 3, 0],
  [0x0a, 0, 2, 0],
  [0x15, 3, 1, 0],
  [0x19, 3, 1, 0],
  [0x20, 0, 2, 0],
  ...[0x30, 0x32, 0x33, 0x34, 0x36, 0x38, 0x3a, 0x3d, 0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x48, 0x4a].map(
    (op): [number, number, number, number] => [op, 2, 0, 1],
  ),
  [0x31, 0, 1, 0],
  [0x35, 3, 1, 0],
  [0x37, 0, 3, 0],
  [0x39, 0, 3, 0],
  [0x3b, 0, 1, 0],
  [0x3c, 0, 4, 0],
  [0x3e, 0, 3, 0],
  [0x3f, 0, 1, 0],
  [0x40, 20, 1, 0],
  [0x47, 5, 0, 1],
  [0x49, 3, 1, 0],
  [0x50, 2, 1, 0],
  [0x51, 0, 1, 0],
  // MSTORE, MSTORE8 and LOG price their memory from the top items alone: the rest is checked after the gas
  [0x52, 0, 1, 0],
  [0x53, 0, 1, 0],
  [0x54, 0, 1, 0],
  [0x55, 0, 2, 0],
  [0x56, 8, 1, 0],
  [0x57, 10, 2, 0],
  [0x58, 2, 0, 1],
  [0x59, 2, 0, 1],
  [0x5a, 2, 0, 1],
  [0x5b, 1, 0, 0],
  [0x5c, 100, 1, 0],
  [0x5d, 100, 2, 0],
  [0x5e, 0, 3, 0],
  [0x5f, 2, 0, 1],
  ...Array.from({ length: 32 }, (_, i): [number, number, number, number] => [0x60 + i, 3, 0, 1]),
  ...Array.from({ length: 16 }, (_, i): [number, number, number, number] => [0x80 + i, 3, i + 1, 1]),
  ...Array.from({ length: 16 }, (_, i): [number, number, number, number] => [0x90 + i, 3, i + 2, 0]),
  ...Array.from({ length: 5 }, (_, i): [number, number, number, number] => [0xa0 + i, 0, 2, 0]),
  [0xf1, 0, 7, 0],
  [0xf2, 0, 7, 0],
  [0xf3, 0, 2, 0],
  [0xf4, 0, 6, 0],
  [0xfa, 0, 6, 0],
  [0xfd, 0, 2, 0],
]

/** The deepest an EVM stack grows, and the deepest calls nest. */
export const STACK_LIMIT = 1024

/** EIP-2929: an account's first touch in a transaction, and any later one. */
export const COLD_ACCOUNT = 2600
export const WARM = 100

/** Each opcode's static gas, the items it needs and the deepest stack it may start on (STACK_LIMIT less what it adds). */
export const fees = new Uint16Array(256)
export const needs = new Uint8Array(256)
export const limits = new Uint16Array(256).fill(STACK_LIMIT)
for (const [op, fee, need, grow] of SHAPES) {
  fees[op] = fee
  needs[op] = need
  limits[op] = STACK_LIMIT - grow
}
