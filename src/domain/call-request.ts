/**
 * The unsigned transaction of eth_call, eth_estimateGas and eth_sendTransaction in domain form (the wire
 * shape is the generated CallObject / TransactionRequest), and the facts about it that both the execution
 * and the signing of a request need: which type it means, its authorization list as @ethereumjs takes it, and the
 * filled request as @ethereumjs's transaction data (what a dev account signs and eth_fillTransaction encodes).
 */
import type { TypedTxData } from '@ethereumjs/tx'
import { bigIntToHex, bytesToHex } from '@ethereumjs/util'

export interface CallRequest {
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
  /** Checked against the node's by eth_sendTransaction; execution ignores it. */
  chainId?: bigint
  accessList?: { address: Uint8Array; storageKeys: Uint8Array[] }[]
  authorizationList?: Authorization[]
  /** EIP-4844: a blob transaction's versioned hashes (what BLOBHASH reads) and its blob fee cap. */
  blobVersionedHashes?: Uint8Array[]
  maxFeePerBlobGas?: bigint
}

/** A request with everything a signature needs filled in. */
export type FilledRequest = CallRequest & { type: number; nonce: bigint; gas: bigint; chainId: bigint }

export interface Authorization {
  chainId: bigint
  address: Uint8Array
  nonce: bigint
  yParity: bigint
  r: bigint
  s: bigint
}

/** eth_call's override of one account, already parsed (the wire form is the generated AccountOverride). */
export type AccountOverrideSpec = {
  balance?: bigint
  nonce?: bigint
  code?: Uint8Array
  state?: Map<bigint, bigint>
  stateDiff?: Map<bigint, bigint>
  /** eth_simulateV1: the precompile at this address moves to that one (its own address then runs its code). */
  movePrecompileTo?: Uint8Array
}
/** eth_call's third parameter, keyed by lower-case hex address. */
export type StateOverrideSpec = Map<string, AccountOverrideSpec>

/**
 * The type the request's fields imply, or undefined when nothing does (no type, authorizations or fee
 * fields): a signed send then defaults to 2, a call to legacy (2930 with an access list), as geth.
 */
export function impliedTxType(request: CallRequest): number | undefined {
  if (request.type !== undefined) return request.type
  if (request.authorizationList) return 4
  if (request.blobVersionedHashes) return 3
  if (request.gasPrice !== undefined) return request.accessList ? 1 : 0
  if (request.maxFeePerGas !== undefined || request.maxPriorityFeePerGas !== undefined) return 2
  return undefined
}

/** Whether the request names a non-zero fee: without one a call pays nothing (geth's NoBaseFee). */
export function paysFees(request: CallRequest): boolean {
  // geth's preCheck skips the base fee check of a call whose fee caps are all zero (so does a gasless call
  // on X Layer, whose fee caps are zero by definition)
  return (request.gasPrice ?? 0n) > 0n || (request.maxFeePerGas ?? 0n) > 0n || (request.maxPriorityFeePerGas ?? 0n) > 0n
}

/** An EIP-7702 authorization list in the hex form @ethereumjs/tx's constructors take. */
export function authorizationListData(list: readonly Authorization[]) {
  return list.map((a) => ({
    chainId: bigIntToHex(a.chainId),
    address: bytesToHex(a.address),
    nonce: bigIntToHex(a.nonce),
    yParity: bigIntToHex(a.yParity),
    r: bigIntToHex(a.r),
    s: bigIntToHex(a.s),
  }))
}

export function toTxData(r: FilledRequest): TypedTxData {
  return {
    type: r.type,
    chainId: r.chainId,
    nonce: r.nonce,
    gasLimit: r.gas,
    to: r.to,
    value: r.value ?? 0n,
    data: r.data ?? new Uint8Array(),
    ...(r.type < 2
      ? { gasPrice: r.gasPrice }
      : { maxFeePerGas: r.maxFeePerGas, maxPriorityFeePerGas: r.maxPriorityFeePerGas }),
    ...(r.type >= 1
      ? {
          accessList: (r.accessList ?? []).map((e) => ({
            address: bytesToHex(e.address),
            storageKeys: e.storageKeys.map(bytesToHex),
          })),
        }
      : {}),
    ...(r.type === 4 ? { authorizationList: authorizationListData(r.authorizationList ?? []) } : {}),
  } as TypedTxData
}
