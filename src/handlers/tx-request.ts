/**
 * The wire transaction object of eth_call, eth_estimateGas and eth_sendTransaction (execution-apis'
 * GenericTransaction) in domain form. `input` is the current name of the calldata, `data` the older one;
 * both given and different is geth's error (-32000, as its other argument checks).
 */
import { InvalidInputError } from '../errors.js'
import { parseData, parseQuantity } from '../format/hex.js'
import type { CallObject } from '../../generated/types.js'

/** The wire shape, as the OpenRPC document's CallObject (nulls tolerated as absent, like geth). */
export type WireTransactionRequest = { [K in keyof CallObject]?: CallObject[K] | null }

export interface AccessListEntry {
  address: Uint8Array
  storageKeys: Uint8Array[]
}

export interface Authorization {
  chainId: bigint
  address: Uint8Array
  nonce: bigint
  yParity: bigint
  r: bigint
  s: bigint
}

export interface TransactionRequest {
  type?: number
  from?: Uint8Array
  /** undefined: a contract creation. */
  to?: Uint8Array
  gas?: bigint
  gasPrice?: bigint
  maxFeePerGas?: bigint
  maxPriorityFeePerGas?: bigint
  value?: bigint
  nonce?: bigint
  data?: Uint8Array
  chainId?: bigint
  accessList?: AccessListEntry[]
  authorizationList?: Authorization[]
}

const q = (hex: string | null | undefined) => (hex == null ? undefined : parseQuantity(hex))
const b = (hex: string | null | undefined) => (hex == null ? undefined : parseData(hex))

export function parseTransactionRequest(wire: WireTransactionRequest): TransactionRequest {
  if (wire.input != null && wire.data != null && wire.input.toLowerCase() !== wire.data.toLowerCase()) {
    throw new InvalidInputError(`both "data" and "input" are set and not equal. Please use "input" to pass transaction call data`)
  }
  const request: TransactionRequest = {
    type: wire.type == null ? undefined : Number(parseQuantity(wire.type)),
    from: b(wire.from),
    to: b(wire.to),
    gas: q(wire.gas),
    gasPrice: q(wire.gasPrice),
    maxFeePerGas: q(wire.maxFeePerGas),
    maxPriorityFeePerGas: q(wire.maxPriorityFeePerGas),
    value: q(wire.value),
    nonce: q(wire.nonce),
    data: b(wire.input ?? wire.data),
    chainId: q(wire.chainId),
    accessList: wire.accessList?.map((e) => ({ address: parseData(e.address), storageKeys: e.storageKeys.map(parseData) })),
    authorizationList: wire.authorizationList?.map((a) => ({
      chainId: parseQuantity(a.chainId), address: parseData(a.address), nonce: parseQuantity(a.nonce),
      yParity: parseQuantity(a.yParity), r: parseQuantity(a.r), s: parseQuantity(a.s),
    })),
  }
  if (request.gasPrice !== undefined && (request.maxFeePerGas !== undefined || request.maxPriorityFeePerGas !== undefined)) {
    throw new InvalidInputError(`both gasPrice and (maxFeePerGas or maxPriorityFeePerGas) specified`)
  }
  return request
}
