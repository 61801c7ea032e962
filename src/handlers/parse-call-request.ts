/**
 * The wire transaction object of eth_call, eth_estimateGas and eth_sendTransaction (execution-apis'
 * GenericTransaction) in domain form. `input` is the current name of the calldata, `data` the older one;
 * both given and different is geth's error (-32000, as its other argument checks).
 */
import { DataAndInputDifferError, GasPriceAndFeeCapError } from '../errors.js'
import { parseData, parseQuantity } from '../format/hex.js'
import type { CallObject } from '../../generated/types.js'
import type { CallRequest } from '../domain/call-request.js'

/** The wire shape, as the OpenRPC document's CallObject (nulls tolerated as absent, like geth). */
export type WireCallRequest = { [K in keyof CallObject]?: CallObject[K] | null }

const q = (hex: string | null | undefined) => (hex == null ? undefined : parseQuantity(hex))
const b = (hex: string | null | undefined) => (hex == null ? undefined : parseData(hex))

export function parseCallRequest(wire: WireCallRequest): CallRequest {
  if (wire.input != null && wire.data != null && wire.input.toLowerCase() !== wire.data.toLowerCase()) {
    throw new DataAndInputDifferError()
  }
  const request: CallRequest = {
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
    accessList: wire.accessList?.map((e) => ({
      address: parseData(e.address),
      storageKeys: e.storageKeys.map(parseData),
    })),
    authorizationList: wire.authorizationList?.map((a) => ({
      chainId: parseQuantity(a.chainId),
      address: parseData(a.address),
      nonce: parseQuantity(a.nonce),
      yParity: parseQuantity(a.yParity),
      r: parseQuantity(a.r),
      s: parseQuantity(a.s),
    })),
    blobVersionedHashes: wire.blobVersionedHashes?.map(parseData),
    maxFeePerBlobGas: q(wire.maxFeePerBlobGas),
  }
  if (
    request.gasPrice !== undefined &&
    (request.maxFeePerGas !== undefined || request.maxPriorityFeePerGas !== undefined)
  ) {
    throw new GasPriceAndFeeCapError()
  }
  return request
}
