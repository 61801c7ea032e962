/**
 * The OP Stack deposit transaction (EIP-2718 type 0x7e): `0x7e || rlp([sourceHash, from, to, mint, value,
 * gas, isSystemTx, data])`, unsigned, its hash the keccak of those bytes. Decoding is as strict as op-geth's
 * RLP decoder (canonical integers, exact lengths, a bool that is 0x80 or 0x01), and every rejection is a
 * -32602 naming the field, since these bytes arrive through eth_sendRawTransaction.
 */
import { RLP } from '@ethereumjs/rlp'
import { keccak_256 } from '@noble/hashes/sha3.js'
import { InvalidParamsError } from '../errors.js'

export const DEPOSIT_TX_TYPE = 0x7e

export interface DepositTx {
  /** 32 bytes: which L1 event (or L1-info slot) this deposit comes from, so equal deposits hash apart. */
  readonly sourceHash: Uint8Array
  readonly from: Uint8Array
  /** undefined: a contract creation. */
  readonly to?: Uint8Array
  /** Wei credited to `from` before execution, kept even when the call fails. */
  readonly mint: bigint
  readonly value: bigint
  readonly gas: bigint
  readonly isSystemTx: boolean
  readonly data: Uint8Array
}

const FIELDS = ['sourceHash', 'from', 'to', 'mint', 'value', 'gas', 'isSystemTx', 'data'] as const
const MAX_U64 = (1n << 64n) - 1n
const MAX_U256 = (1n << 256n) - 1n

function invalid(field: string, why: string): InvalidParamsError {
  return new InvalidParamsError(`invalid deposit transaction: ${field} ${why}`)
}

function isDepositBytes(raw: Uint8Array): boolean {
  return raw.length > 0 && raw[0] === DEPOSIT_TX_TYPE
}

/** Checks a deposit built in code (or decoded) against the same rules as the wire. */
function validateDeposit(tx: DepositTx): void {
  if (tx.sourceHash.length !== 32) throw invalid('sourceHash', 'must be 32 bytes')
  if (tx.from.length !== 20) throw invalid('from', 'must be a 20-byte address')
  if (tx.to !== undefined && tx.to.length !== 20)
    throw invalid('to', 'must be a 20-byte address or empty (contract creation)')
  if (tx.mint < 0n || tx.mint > MAX_U256) throw invalid('mint', 'must be a uint256')
  if (tx.value < 0n || tx.value > MAX_U256) throw invalid('value', 'must be a uint256')
  if (tx.gas < 0n || tx.gas > MAX_U64) throw invalid('gas', 'must be a uint64')
}

function uint(value: bigint): Uint8Array {
  if (value === 0n) return new Uint8Array()
  let hex = value.toString(16)
  if (hex.length % 2) hex = `0${hex}`
  return Uint8Array.from(Buffer.from(hex, 'hex'))
}

export function encodeDeposit(tx: DepositTx): Uint8Array {
  validateDeposit(tx)
  const body = RLP.encode([
    tx.sourceHash,
    tx.from,
    tx.to ?? new Uint8Array(),
    uint(tx.mint),
    uint(tx.value),
    uint(tx.gas),
    tx.isSystemTx ? Uint8Array.of(1) : new Uint8Array(),
    tx.data,
  ])
  const out = new Uint8Array(body.length + 1)
  out[0] = DEPOSIT_TX_TYPE
  out.set(body, 1)
  return out
}

function decodeUint(field: string, bytes: Uint8Array, max: bigint): bigint {
  if (bytes.length > 0 && bytes[0] === 0) throw invalid(field, 'has leading zero bytes (non-canonical integer)')
  const value = bytes.length ? BigInt(`0x${Buffer.from(bytes).toString('hex')}`) : 0n
  if (value > max) throw invalid(field, `overflows ${max === MAX_U64 ? 'uint64' : 'uint256'}`)
  return value
}

export function decodeDeposit(raw: Uint8Array): DepositTx {
  if (!isDepositBytes(raw)) throw new InvalidParamsError('invalid deposit transaction: type must be 0x7e')
  let decoded: unknown
  try {
    decoded = RLP.decode(raw.subarray(1))
  } catch (err) {
    throw new InvalidParamsError(`invalid deposit transaction: rlp: ${(err as Error).message}`)
  }
  if (!Array.isArray(decoded)) throw new InvalidParamsError('invalid deposit transaction: expected an RLP list')
  if (decoded.length !== FIELDS.length) {
    throw new InvalidParamsError(
      `invalid deposit transaction: expected ${FIELDS.length} fields (${FIELDS.join(', ')}), got ${decoded.length}`,
    )
  }
  decoded.forEach((item, i) => {
    if (!(item instanceof Uint8Array)) throw invalid(FIELDS[i], 'must be a byte string, not a list')
  })
  const [sourceHash, from, to, mint, value, gas, isSystemTx, data] = decoded as Uint8Array[]
  if (isSystemTx.length > 1 || (isSystemTx.length === 1 && isSystemTx[0] !== 1))
    throw invalid('isSystemTx', 'must be a boolean (empty or 0x01)')
  const tx: DepositTx = {
    sourceHash,
    from,
    to: to.length === 0 ? undefined : to,
    mint: decodeUint('mint', mint, MAX_U256),
    value: decodeUint('value', value, MAX_U256),
    gas: decodeUint('gas', gas, MAX_U64),
    isSystemTx: isSystemTx.length === 1,
    data,
  }
  validateDeposit(tx)
  return tx
}

/** keccak256 of the typed encoding (pass the bytes as received to hash exactly what was sent). */
export function depositHash(txOrRaw: DepositTx | Uint8Array): Uint8Array {
  return keccak_256(txOrRaw instanceof Uint8Array ? txOrRaw : encodeDeposit(txOrRaw))
}
