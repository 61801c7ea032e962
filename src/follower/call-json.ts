/** A domain CallRequest as the wire's transaction object, for forwarding eth_estimateGas to the upstream. */
import type { CallRequest } from '../domain/call-request.js'
import { data, quantity } from '../format/hex.js'

export function callRequestJson(r: CallRequest): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  const q = (name: string, value: bigint | number | undefined) => value !== undefined && (out[name] = quantity(value))
  if (r.from) out.from = data(r.from)
  if (r.to) out.to = data(r.to)
  q('type', r.type)
  q('gas', r.gas)
  q('gasPrice', r.gasPrice)
  q('maxFeePerGas', r.maxFeePerGas)
  q('maxPriorityFeePerGas', r.maxPriorityFeePerGas)
  q('value', r.value)
  q('nonce', r.nonce)
  q('chainId', r.chainId)
  if (r.data) out.data = data(r.data)
  if (r.accessList)
    out.accessList = r.accessList.map((e) => ({ address: data(e.address), storageKeys: e.storageKeys.map(data) }))
  if (r.authorizationList)
    out.authorizationList = r.authorizationList.map((a) => ({
      chainId: quantity(a.chainId),
      address: data(a.address),
      nonce: quantity(a.nonce),
      yParity: quantity(a.yParity),
      r: quantity(a.r),
      s: quantity(a.s),
    }))
  return out
}
