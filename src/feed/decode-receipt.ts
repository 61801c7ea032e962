/**
 * A metadata receipt in either form producers send: op-alloy's current one, internally tagged
 * (`{"type":"0x2","status":"0x1",...}`: Base, op-rbuilder), or the older externally tagged one
 * (`{"Eip1559":{...}}`: rollup-boost, X Layer's docs), which op-alloy's deserializer still accepts. `status`
 * is a quantity or, as alloy also reads it, a boolean.
 */
import type { FlashblockMetaReceipt } from '../domain/types.js'
import { FeedDecodeError } from './codec.js'
import { bytes, type Fields, list, object, quantity } from './wire-read.js'

/** op-alloy's OpReceipt variants by name (PostExec: Lagoon's 0x7d refund transaction). */
const TAGS: Readonly<Record<string, number>> = {
  Legacy: 0,
  Eip2930: 1,
  Eip1559: 2,
  Eip7702: 4,
  PostExec: 0x7d,
  Deposit: 0x7e,
}

export function decodeReceipt(hash: string, value: unknown): FlashblockMetaReceipt {
  const field = `metadata.receipts[${hash}]`
  const receipt = object(value, field)
  let txType: number
  let body: Fields
  if ('type' in receipt) {
    txType = Number(quantity(receipt.type, `${field}.type`))
    body = receipt
  } else {
    const tags = Object.keys(receipt)
    const tag = tags[0]
    if (tags.length !== 1 || TAGS[tag] === undefined)
      throw new FeedDecodeError(`feed field ${field} is neither typed nor tagged by a known type`)
    txType = TAGS[tag]
    body = object(receipt[tag], `${field}.${tag}`)
  }
  return {
    transactionHash: bytes(hash, `${field} key`, 32),
    txType,
    status: status(body.status, `${field}.status`),
    cumulativeGasUsed: quantity(body.cumulativeGasUsed, `${field}.cumulativeGasUsed`),
    logs: list(body.logs, `${field}.logs`).map((l, i) => {
      const log = object(l, `${field}.logs[${i}]`)
      return {
        address: bytes(log.address, `${field}.logs[${i}].address`, 20),
        topics: list(log.topics, `${field}.logs[${i}].topics`).map((t) => bytes(t, `${field}.logs[${i}].topics`, 32)),
        data: bytes(log.data, `${field}.logs[${i}].data`),
      }
    }),
    ...(body.depositNonce !== undefined && body.depositNonce !== null
      ? { depositNonce: quantity(body.depositNonce, `${field}.depositNonce`) }
      : {}),
  }
}

function status(value: unknown, field: string): 0 | 1 {
  if (value === true || value === false) return value ? 1 : 0
  const n = quantity(value, field)
  if (n > 1n) throw new FeedDecodeError(`feed field ${field} is not 0 or 1`)
  return n === 1n ? 1 : 0
}
