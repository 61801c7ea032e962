/**
 * Logs on the wire, shaped like geth's types.Log JSON: the emitter, topics and data, plus the position of
 * the log in its block. A preconfirmed log carries the pending block's number and hash at its flashblock.
 */
import type { LogRecord } from '../domain/types.js'
import { address, data, quantity, type Hex } from './hex.js'

export type RpcLog = {
  address: Hex
  topics: Hex[]
  data: Hex
  blockNumber: Hex
  transactionHash: Hex
  transactionIndex: Hex
  blockHash: Hex
  blockTimestamp: Hex
  logIndex: Hex
  removed: boolean
}

export function formatLog(log: LogRecord, removed = false): RpcLog {
  return {
    address: address(log.address),
    topics: log.topics.map(data),
    data: data(log.data),
    blockNumber: quantity(log.blockNumber),
    transactionHash: data(log.transactionHash),
    transactionIndex: quantity(log.transactionIndex),
    blockHash: data(log.blockHash),
    blockTimestamp: quantity(log.blockTimestamp),
    logIndex: quantity(log.logIndex),
    removed,
  }
}
