/**
 * The dynamic gas that needs no state read: memory expansion and a per-word charge (MLOAD, MSTORE, MSTORE8,
 * KECCAK256, CALLDATACOPY, CODECOPY, RETURN, REVERT) and SLOAD's EIP-2929 access charge (the journal's warm
 * set): what every Solidity view runs (the free memory pointer, ABI encoding, mapping keys, the return).
 * @ethereumjs computes each in an async handler, a promise and an await per opcode; these compute the same
 * with the package's own subMemUsage, divCeil and accessStorageEIP2929, synchronously, for an opcode whose
 * handler in the EVM's table is the shipped one (a custom opcode, or a later fork's own handler, keeps the
 * shipped path). Verkle's charges are not here: sync-steps.ts never runs on those forks.
 */
import type { Common } from '@ethereumjs/common'
import type { Internals, RunState } from './internals.js'
import { wordBytes } from './words.js'

type SyncGas = (runState: RunState, common: Common) => bigint

const WORD = 32n

function table({ subMemUsage, divCeil, accessStorageEIP2929 }: Internals): Map<number, SyncGas> {
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

/** For an opcode whose table entry carries the gas handler `shipped`: its synchronous gas, if there is one. */
export function syncGasTable(internals: Internals): (opcode: number, shipped: unknown) => SyncGas | undefined {
  const byOpcode = table(internals)
  return (opcode, shipped) => {
    const gas = byOpcode.get(opcode)
    return gas && internals.dynamicGasHandlers.get(opcode) === shipped ? gas : undefined
  }
}
