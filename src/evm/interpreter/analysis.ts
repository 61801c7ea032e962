/**
 * A code's JUMPDEST map: 1 at each JUMPDEST that is an opcode (not inside a PUSH's data). Kept per code
 * array, as jump-analysis.ts keeps the shipped interpreter's: the read views hand out one array per contract.
 */
const JUMPDEST = 0x5b
const PUSH1 = 0x60
const PUSH32 = 0x7f

const maps = new WeakMap<Uint8Array, Uint8Array>()

export function analyse(code: Uint8Array): Uint8Array {
  let map = maps.get(code)
  if (map !== undefined) return map
  map = new Uint8Array(code.length)
  for (let pc = 0; pc < code.length; pc++) {
    const op = code[pc]!
    if (op === JUMPDEST) map[pc] = 1
    else if (op >= PUSH1 && op <= PUSH32) pc += op - PUSH1 + 1
  }
  maps.set(code, map)
  return map
}
