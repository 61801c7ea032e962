/**
 * The dynamic gas that needs no state read: memory expansion and a per-word charge (MLOAD, MSTORE, MSTORE8,
 * KECCAK256, CALLDATACOPY, CODECOPY, RETURN, REVERT) and SLOAD's EIP-2929 access charge (the journal's warm
 * set): what every Solidity view runs (the free memory pointer, ABI encoding, mapping keys, the return).
 * @ethereumjs computes each in an async handler, a promise and an await per opcode; these compute the same
 * with the package's own subMemUsage, divCeil and accessStorageEIP2929, synchronously, for an opcode whose
 * handler in the EVM's table is the shipped one (a custom opcode, or a later fork's own handler, keeps the
 * shipped path). Verkle's charges are not here: sync-steps.ts never runs on those forks.
 */
import { gasInternals } from './evm-internals.js'
import { wordBytes } from './words.js'

type Stack = { peek(n?: number): bigint[] }
type RunState = { stack: Stack }
type Common = { param(name: string): bigint; isActivatedEIP(eip: number): boolean }
export type SyncGas = (runState: RunState, common: Common) => bigint

const WORD = 32n

function table(): Map<number, SyncGas> {
  if (!gasInternals) return new Map()
  const { subMemUsage, divCeil, accessStorageEIP2929 } = gasInternals
  const words = (length: bigint) => divCeil(length, WORD)
  const memory =
    (width: bigint): SyncGas =>
    (rs, common) =>
      subMemUsage(rs, rs.stack.peek()[0]!, width, common)
  const span: SyncGas = (rs, common) => {
    const [offset, length] = rs.stack.peek(2) as [bigint, bigint]
    return subMemUsage(rs, offset, length, common)
  }
  const copy: SyncGas = (rs, common) => {
    const [memOffset, , length] = rs.stack.peek(3) as [bigint, bigint, bigint]
    const expansion = subMemUsage(rs, memOffset, length, common)
    return length === 0n ? expansion : expansion + common.param('copyGas') * words(length)
  }
  const keccak: SyncGas = (rs, common) => {
    const [offset, length] = rs.stack.peek(2) as [bigint, bigint]
    return subMemUsage(rs, offset, length, common) + common.param('keccak256WordGas') * words(length)
  }
  const ours: [number, SyncGas][] = [
    [0x20, keccak], // KECCAK256
    [0x37, copy], // CALLDATACOPY
    [0x39, copy], // CODECOPY
    [0x51, memory(WORD)], // MLOAD
    [0x52, memory(WORD)], // MSTORE
    [0x53, memory(1n)], // MSTORE8
    [0xf3, span], // RETURN
    [0xfd, span], // REVERT
    [0x54, (rs, common) => accessStorageEIP2929(rs, wordBytes(rs.stack.peek()[0]!), false, common)], // SLOAD
  ]
  return new Map(ours)
}

const byOpcode = table()

/** The synchronous gas function for an opcode whose table entry carries `shipped`, if there is one. */
export function syncGasOf(opcode: number, shipped: unknown): SyncGas | undefined {
  const gas = byOpcode.get(opcode)
  return gas && gasInternals?.dynamicGasHandlers.get(opcode) === shipped ? gas : undefined
}
