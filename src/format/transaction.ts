/**
 * Transactions on the wire, shaped like geth's RPCTransaction: the fields of each type (0, 1, 2, 3, 4),
 * the signature as v/r/s plus yParity for typed ones, and the block position when it has one.
 */
import { Capability, type TypedTransaction } from '@ethereumjs/tx'
import type { SignedTransaction, Transaction, UnsignedTransaction } from '../../generated/types.js'
import { effectiveGasPrice } from '../domain/gas-price.js'
import { address, data, quantity } from './hex.js'
import { type ChainTransaction, isDeposit } from '../domain/deposit-transaction.js'
import { formatDepositTransaction } from './deposit.js'

/** Where a transaction sits; absent for a transaction still in the pool. A deposit's nonce comes from its receipt. */
export type TxPosition = {
  blockHash: Uint8Array
  blockNumber: bigint
  blockTimestamp?: bigint
  index: number
  baseFee?: bigint
  depositNonce?: bigint
}

export type RpcTransaction = Transaction

export function formatTransaction(tx: ChainTransaction, from: Uint8Array, position?: TxPosition): RpcTransaction {
  if (isDeposit(tx)) {
    const outcome = position?.depositNonce !== undefined ? { depositNonce: position.depositNonce } : undefined
    return formatDepositTransaction(tx.deposit, tx.hash(), position, outcome) as unknown as Transaction
  }
  const out: Record<string, unknown> = {
    blockHash: position ? data(position.blockHash) : null,
    blockNumber: position ? quantity(position.blockNumber) : null,
    blockTimestamp: position?.blockTimestamp !== undefined ? quantity(position.blockTimestamp) : null,
    from: address(from),
    gas: quantity(tx.gasLimit),
    gasPrice: quantity(effectiveGasPrice(tx, position?.baseFee)),
    hash: data(tx.hash()),
    input: data(tx.data),
    nonce: quantity(tx.nonce),
    to: tx.to ? address(tx.to.bytes) : null,
    transactionIndex: position ? quantity(position.index) : null,
    value: quantity(tx.value),
    type: quantity(tx.type),
  }
  typedFields(tx, out)
  signatureFields(tx, out)
  return out as Transaction
}

/**
 * eth_fillTransaction's `tx`: the fields a signature covers (execution-apis' Transaction*Unsigned) and the
 * sender, no hash or signature; a type-2/4 transaction's gasPrice is its fee cap, as in the pool.
 */
export function formatUnsignedTransaction(tx: TypedTransaction, from: Uint8Array): UnsignedTransaction {
  const out: Record<string, unknown> = {
    type: quantity(tx.type),
    from: address(from),
    to: tx.to ? address(tx.to.bytes) : null,
    nonce: quantity(tx.nonce),
    gas: quantity(tx.gasLimit),
    value: quantity(tx.value),
    input: data(tx.data),
    gasPrice: quantity(effectiveGasPrice(tx, undefined)),
  }
  typedFields(tx, out)
  return out as UnsignedTransaction
}

/**
 * eth_signTransaction's `tx`: the unsigned fields (gasPrice of a type-2/4 one its fee cap, as geth shows a
 * transaction not yet in a block), the hash eth_sendRawTransaction will answer and the signature.
 */
export function formatSignedTransaction(tx: TypedTransaction, from: Uint8Array): SignedTransaction {
  const out: Record<string, unknown> = { ...formatUnsignedTransaction(tx, from), hash: data(tx.hash()) }
  signatureFields(tx, out)
  return out as SignedTransaction
}

/** v, r, s; a typed transaction's v is its y-parity, shown under both names. */
function signatureFields(tx: TypedTransaction, out: Record<string, unknown>): void {
  out.v = quantity(tx.v ?? 0n)
  out.r = quantity(tx.r ?? 0n)
  out.s = quantity(tx.s ?? 0n)
  if (tx.type !== 0) out.yParity = quantity(tx.v ?? 0n)
}

/** The fields one type has and another has not: fees, lists, the chain id (a legacy one's only with EIP-155). */
function typedFields(tx: TypedTransaction, out: Record<string, unknown>): void {
  if ('maxFeePerGas' in tx) {
    out.maxFeePerGas = quantity(tx.maxFeePerGas)
    out.maxPriorityFeePerGas = quantity(tx.maxPriorityFeePerGas)
  }
  if ('maxFeePerBlobGas' in tx) out.maxFeePerBlobGas = quantity(tx.maxFeePerBlobGas)
  if (tx.supports(Capability.EIP2930AccessLists)) {
    const list = (tx as unknown as { accessList: [Uint8Array, Uint8Array[]][] }).accessList
    out.accessList = list.map(([addr, keys]) => ({ address: address(addr), storageKeys: keys.map(data) }))
  }
  if ('blobVersionedHashes' in tx) out.blobVersionedHashes = [...tx.blobVersionedHashes]
  if ('authorizationList' in tx) {
    const auths = (tx as unknown as { authorizationList: Uint8Array[][] }).authorizationList
    out.authorizationList = auths.map(([chainId, addr, nonce, yParity, r, s]) => ({
      chainId: quantity(bytesToBig(chainId)),
      address: address(addr),
      nonce: quantity(bytesToBig(nonce)),
      yParity: quantity(bytesToBig(yParity)),
      r: quantity(bytesToBig(r)),
      s: quantity(bytesToBig(s)),
    }))
  }
  const chainId =
    tx.type === 0
      ? tx.supports(Capability.EIP155ReplayProtection)
        ? tx.common.chainId()
        : undefined
      : tx.common.chainId()
  if (chainId !== undefined) out.chainId = quantity(chainId)
}

function bytesToBig(bytes: Uint8Array): bigint {
  let n = 0n
  for (const b of bytes) n = (n << 8n) | BigInt(b)
  return n
}
