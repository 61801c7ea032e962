/**
 * The L1-info deposit every OP Stack block opens with: a call from the depositor account to L1Block that
 * records the L1 origin and fee parameters, in the packed calldata of the active fork (not ABI-encoded):
 * Ecotone `setL1BlockValuesEcotone()` (164 bytes), Isthmus adds the operator fee (176), Jovian the DA
 * footprint scalar (178) (specs/protocol/{ecotone,isthmus,jovian}/l1-attributes.md).
 */
import { keccak_256 } from '@noble/hashes/sha3.js'
import { InvalidParamsError } from '../errors.js'
import { L1_BLOCK, L1_INFO_DEPOSITOR } from './addresses.js'
import type { DepositTx } from '../domain/deposit-encoding.js'
import type { L1Info } from './l1-origin.js'
import { l1InfoSourceHash } from './source-hash.js'

export type L1InfoFormat = 'ecotone' | 'isthmus' | 'jovian'

/** Gas of the L1-info deposit since Regolith. */
export const L1_INFO_DEPOSIT_GAS = 1_000_000n

const SIGNATURES: Record<L1InfoFormat, string> = {
  ecotone: 'setL1BlockValuesEcotone()',
  isthmus: 'setL1BlockValuesIsthmus()',
  jovian: 'setL1BlockValuesJovian()',
}
const LENGTHS: Record<L1InfoFormat, number> = { ecotone: 164, isthmus: 176, jovian: 178 }

const FORMATS = Object.keys(SIGNATURES) as L1InfoFormat[]
// hashed once: every block's L1-info deposit is encoded, and its parent's decoded, by selector
const SELECTORS = Object.fromEntries(
  FORMATS.map((f) => [f, keccak_256(new TextEncoder().encode(SIGNATURES[f])).subarray(0, 4)]),
) as Record<L1InfoFormat, Uint8Array>

export function l1InfoSelector(format: L1InfoFormat): Uint8Array {
  return SELECTORS[format].slice()
}

function put(out: Uint8Array, at: number, width: number, value: bigint, field: string): void {
  if (value < 0n || value >= 1n << BigInt(width * 8))
    throw new RangeError(`L1 info ${field} does not fit in ${width * 8} bits`)
  let v = value
  for (let i = at + width - 1; i >= at; i--) {
    out[i] = Number(v & 0xffn)
    v >>= 8n
  }
}

function get(data: Uint8Array, at: number, width: number): bigint {
  let v = 0n
  for (let i = at; i < at + width; i++) v = (v << 8n) | BigInt(data[i]!)
  return v
}

export function encodeL1InfoCalldata(info: L1Info, format: L1InfoFormat = 'jovian'): Uint8Array {
  const out = new Uint8Array(LENGTHS[format])
  out.set(SELECTORS[format], 0)
  put(out, 4, 4, info.baseFeeScalar, 'baseFeeScalar')
  put(out, 8, 4, info.blobBaseFeeScalar, 'blobBaseFeeScalar')
  put(out, 12, 8, info.sequenceNumber, 'sequenceNumber')
  put(out, 20, 8, info.timestamp, 'timestamp')
  put(out, 28, 8, info.number, 'number')
  put(out, 36, 32, info.l1BaseFee, 'basefee')
  put(out, 68, 32, info.blobBaseFee, 'blobBaseFee')
  if (info.hash.length !== 32 || info.batcherHash.length !== 32)
    throw new RangeError('L1 info hash and batcherHash must be 32 bytes')
  out.set(info.hash, 100)
  out.set(info.batcherHash, 132)
  if (format !== 'ecotone') {
    put(out, 164, 4, info.operatorFeeScalar, 'operatorFeeScalar')
    put(out, 168, 8, info.operatorFeeConstant, 'operatorFeeConstant')
  }
  if (format === 'jovian') put(out, 176, 2, info.daFootprintGasScalar, 'daFootprintGasScalar')
  return out
}

/** Reads L1-info calldata back (a follower re-executing a real block needs its fees); fields a format lacks are 0. */
export function decodeL1InfoCalldata(data: Uint8Array): { format: L1InfoFormat; info: L1Info } {
  const format = FORMATS.find((f) => SELECTORS[f].every((b, i) => data[i] === b))
  if (!format) throw new InvalidParamsError('invalid L1 info deposit: unknown selector')
  if (data.length !== LENGTHS[format])
    throw new InvalidParamsError(
      `invalid L1 info deposit: ${format} calldata is ${LENGTHS[format]} bytes, got ${data.length}`,
    )
  const info: L1Info = {
    baseFeeScalar: get(data, 4, 4),
    blobBaseFeeScalar: get(data, 8, 4),
    sequenceNumber: get(data, 12, 8),
    timestamp: get(data, 20, 8),
    number: get(data, 28, 8),
    l1BaseFee: get(data, 36, 32),
    blobBaseFee: get(data, 68, 32),
    hash: data.slice(100, 132),
    batcherHash: data.slice(132, 164),
    operatorFeeScalar: format === 'ecotone' ? 0n : get(data, 164, 4),
    operatorFeeConstant: format === 'ecotone' ? 0n : get(data, 168, 8),
    daFootprintGasScalar: format === 'jovian' ? get(data, 176, 2) : 0n,
  }
  return { format, info }
}

/** The L1-info deposit for a block with this L1 info (not a system tx: Regolith retired those). */
export function l1InfoDeposit(info: L1Info, format: L1InfoFormat = 'jovian'): DepositTx {
  return {
    sourceHash: l1InfoSourceHash(info.hash, info.sequenceNumber),
    from: L1_INFO_DEPOSITOR,
    to: L1_BLOCK,
    mint: 0n,
    value: 0n,
    gas: L1_INFO_DEPOSIT_GAS,
    isSystemTx: false,
    data: encodeL1InfoCalldata(info, format),
  }
}
