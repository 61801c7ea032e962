/**
 * Handlers for the opcodes that turn 32-byte words into stack values and back: MLOAD, MSTORE, CALLDATALOAD,
 * KECCAK256 (its digest) and SLOAD (its key and value). @ethereumjs converts through hex strings and pads by
 * spreading arrays into new ones (setLengthLeft): in a Solidity view these were the costliest opcodes after
 * the state reads, dozens of times a PUSH (bench/README.md, "Read path, session 4", has the figures). These
 * do the same through a DataView's 64-bit words (words.ts). `wordOpcodes` installs them in one
 * EVM's opcode table (the call path's) in place of a handler that is still the shipped one; every other EVM
 * runs the shipped handlers.
 */
import type { Common } from '@ethereumjs/common'
import type { EVM } from '@ethereumjs/evm'
import { hookRuns } from './hook-runs.js'
import type { Internals, RunState } from './internals.js'
import { rightPaddedValue, scratchWord, stackValue, wordBytes } from './words.js'

type Handler = (runState: RunState, common: Common) => void | Promise<void>

const EMPTY = new Uint8Array(0)

const handlers: [number, Handler][] = [
  [
    0x20, // KECCAK256
    (rs, common) => {
      hookRuns.wordOpcodes++
      const [offset, length] = rs.stack.popN(2) as [bigint, bigint]
      const data = length === 0n ? EMPTY : rs.memory.read(Number(offset), Number(length), true)
      rs.stack.push(stackValue(common.customCrypto.keccak256!(data)))
    },
  ],
  [
    0x35, // CALLDATALOAD: what lies past the calldata reads as zeros
    (rs) => {
      hookRuns.wordOpcodes++
      const pos = rs.stack.pop()
      if (pos > rs.interpreter.getCallDataSize()) return rs.stack.push(0n)
      const i = Number(pos)
      rs.stack.push(rightPaddedValue(rs.interpreter.getCallData().subarray(i, i + 32)))
    },
  ],
  [
    0x51, // MLOAD
    (rs) => {
      hookRuns.wordOpcodes++
      const pos = rs.stack.pop()
      rs.stack.push(stackValue(rs.memory.read(Number(pos), 32, true)))
    },
  ],
  [
    0x52, // MSTORE: write copies the scratch word into memory
    (rs) => {
      hookRuns.wordOpcodes++
      const [offset, word] = rs.stack.popN(2) as [bigint, bigint]
      rs.memory.write(Number(offset), 32, scratchWord(word))
    },
  ],
  [
    0x54, // SLOAD
    async (rs) => {
      hookRuns.wordOpcodes++
      const key = wordBytes(rs.stack.pop())
      const value = await rs.interpreter.storageLoad(key)
      rs.stack.push(value.length > 0 ? stackValue(value) : 0n)
    },
  ],
]

/**
 * Installs these handlers on `evm` for each opcode whose handler is the shipped one (KECCAK256 only where the
 * Common brings its keccak, as the chain's does).
 */
export function wordOpcodes(evm: EVM, shipped: Internals['handlers']): void {
  const map = evm['_opcodeMap']
  const keccak = evm.common.customCrypto?.keccak256
  for (const [opcode, handler] of handlers) {
    const entry = map[opcode]
    if (!entry || entry.opHandler !== shipped.get(opcode)) continue
    if (opcode === 0x20 && !keccak) continue
    map[opcode] = { ...entry, opHandler: handler }
  }
}
