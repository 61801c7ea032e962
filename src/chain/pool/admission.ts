/**
 * Admission checks that need no state, in geth's order (core/txpool ValidateTransaction): decode once
 * (native ecrecover through the Common's customCrypto), then chain id, gas limit, fee caps, sender,
 * intrinsic gas. Every rejection carries geth's exact text, which viem and ethers match by regex.
 */
import type { Common } from '@ethereumjs/common'
import { RLP } from '@ethereumjs/rlp'
import { createTxFromRLP, type TypedTransaction } from '@ethereumjs/tx'
import { bytesToBigInt } from '@ethereumjs/util'
import {
  EmptyAuthListError,
  ExceedsBlockGasLimitError,
  FeeCapTooLowError,
  FloorDataGasTooLowError,
  InvalidChainIdError,
  InvalidInputError,
  InvalidSenderError,
  InvalidTransactionError,
  IntrinsicGasTooLowError,
  OversizedDataError,
  TipAboveFeeCapError,
  TxTypeNotSupportedError,
} from '../../errors.js'
import { MAX_TX_BYTES } from '../../limits.js'
import { keccak256 } from '../../evm/crypto.js'
import { adoptCommon, callCommon } from '../../evm/chain-common.js'
import { setKnownSender } from '../../evm/patches/known-sender.js'
import type { TxRecord, UserTxRecord } from '../../domain/types.js'
import { DepositTransaction } from '../../domain/deposit-transaction.js'
import { DEPOSIT_TX_TYPE } from '../../domain/deposit-encoding.js'

/** Transaction types this chain executes: legacy, EIP-2930, EIP-1559, EIP-7702 (no blob transactions). */
const SUPPORTED_TYPES = new Set([0, 1, 2, 4])

export interface BlockLimits {
  gasLimit: bigint
  baseFee: bigint
}

/**
 * Decodes raw bytes into a TxRecord, or throws the error geth would answer. An OP Stack deposit (0x7e)
 * decodes to a DepositTransaction whose sender is its `from` (a bad field: -32602 naming it).
 */
export function decodeTransaction(raw: Uint8Array, common: Common): TxRecord {
  if (raw.length > MAX_TX_BYTES) throw new OversizedDataError()
  if (raw.length === 0) throw new InvalidInputError('typed transaction too short')
  if (raw[0] === DEPOSIT_TX_TYPE) {
    const tx = DepositTransaction.fromBytes(raw)
    return { hash: tx.hash(), tx, sender: tx.deposit.from, raw }
  }
  const type = raw[0] >= 0xc0 ? 0 : raw[0]
  if (!SUPPORTED_TYPES.has(type)) throw new TxTypeNotSupportedError()
  const chainId = declaredChainId(raw, type)
  if (chainId !== undefined && chainId !== common.chainId()) throw new InvalidChainIdError()
  let tx: TypedTransaction
  try {
    // decoded against the Common that skips the params merge; adoptCommon then hands it the record Common
    tx = createTxFromRLP(raw, { common: callCommon(common), freeze: false })
  } catch (err) {
    // the decoder refuses tip > fee cap itself; answer geth's text so clients recognise it
    if (String((err as Error)?.message).includes('maxFeePerGas cannot be less than maxPriorityFeePerGas')) {
      throw new TipAboveFeeCapError()
    }
    throw new InvalidTransactionError(shortReason(err))
  }
  if (!tx.isSigned()) throw new InvalidSenderError()
  let sender: Uint8Array
  try {
    sender = rememberSender(tx)
  } catch {
    throw new InvalidSenderError()
  }
  adoptCommon(tx, common)
  return { hash: tx.hash(), tx, sender, raw } satisfies UserTxRecord
}

/**
 * Recovers the sender once, before the transaction is frozen, and keeps it on the transaction:
 * @ethereumjs caches only the public key and hashes it again (pure-JS keccak) on every getSenderAddress,
 * which runTx calls once per execution. Same address, computed with the fast keccak.
 */
function rememberSender(tx: TypedTransaction): Uint8Array {
  const publicKey = tx.getSenderPublicKey()
  const sender = keccak256(publicKey).slice(12)
  tx.cache.senderPubKey = publicKey
  setKnownSender(tx, sender)
  return sender
}

/** The checks that depend only on the transaction and the block it would go into. */
export function checkStateless(record: UserTxRecord, limits: BlockLimits): void {
  const tx = record.tx
  if (tx.gasLimit > limits.gasLimit) throw new ExceedsBlockGasLimitError()
  if ('maxFeePerGas' in tx && tx.maxPriorityFeePerGas > tx.maxFeePerGas) {
    throw new TipAboveFeeCapError()
  }
  if ('authorizationList' in tx && (tx.authorizationList as unknown[]).length === 0) {
    throw new EmptyAuthListError()
  }
  if (tx.gasLimit < tx.getIntrinsicGas()) throw new IntrinsicGasTooLowError()
  // EIP-7623 (Prague): calldata-heavy transactions must also cover the floor price of their data
  if (tx.gasLimit < tx.getMinimumGasLimit()) throw new FloorDataGasTooLowError()
  const feeCap = 'maxFeePerGas' in tx ? tx.maxFeePerGas : (tx as { gasPrice: bigint }).gasPrice
  if (feeCap < limits.baseFee) throw new FeeCapTooLowError()
}

/** The chain id a transaction commits to before decoding it (so a foreign one gets geth's text). */
function declaredChainId(raw: Uint8Array, type: number): bigint | undefined {
  let fields: unknown
  try {
    fields = RLP.decode(type === 0 ? raw : raw.subarray(1))
  } catch (err) {
    throw new InvalidTransactionError(shortReason(err))
  }
  if (!Array.isArray(fields) || fields.length === 0) throw new InvalidTransactionError('not an RLP list')
  if (type !== 0) return fields[0] instanceof Uint8Array ? bytesToBigInt(fields[0]) : undefined
  const v = fields[6] instanceof Uint8Array ? bytesToBigInt(fields[6]) : 0n
  return v >= 35n ? (v - 35n) / 2n : undefined // 27/28: a pre-EIP-155 transaction valid on any chain
}

function shortReason(err: unknown): string {
  // @ethereumjs appends the whole transaction dump after the reason
  return String((err as Error).message ?? err)
    .split(' (tx type=')[0]
    .split('\n')[0]
}
