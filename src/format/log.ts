/**
 * Logs on the wire, shaped like geth's types.Log JSON: the emitter, topics and data, plus the position of
 * the log in its block. A preconfirmed log carries the pending block's number and hash at its flashblock.
 */
import { address, data, quantity, type Hex } from './hex.js'

/** The part of a log the EVM produced. */
export type LogBody = { address: Uint8Array; topics: readonly Uint8Array[]; data: Uint8Array }

/** Where a log sits: its block, its transaction and its index among all logs of the block. */
export type LogPosition = {
  blockHash: Uint8Array
  blockNumber: bigint
  blockTimestamp?: bigint
  transactionHash: Uint8Array
  transactionIndex: number
  logIndex: number
  removed?: boolean
}

export type RpcLog = {
  address: Hex
  topics: Hex[]
  data: Hex
  blockNumber: Hex
  transactionHash: Hex
  transactionIndex: Hex
  blockHash: Hex
  blockTimestamp?: Hex
  logIndex: Hex
  removed: boolean
}

export function formatLog(log: LogBody, position: LogPosition): RpcLog {
  const out: RpcLog = {
    address: address(log.address),
    topics: log.topics.map(data),
    data: data(log.data),
    blockNumber: quantity(position.blockNumber),
    transactionHash: data(position.transactionHash),
    transactionIndex: quantity(position.transactionIndex),
    blockHash: data(position.blockHash),
    logIndex: quantity(position.logIndex),
    removed: position.removed ?? false,
  }
  if (position.blockTimestamp !== undefined) out.blockTimestamp = quantity(position.blockTimestamp)
  return out
}
