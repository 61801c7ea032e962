/**
 * Block overrides at the wire boundary: eth_simulateV1's (generated BlockOverrides) and a call's (generated
 * CallBlockOverrides: eth_call's and eth_estimateGas's fourth parameter, debug_traceCall's `blockOverrides`)
 * read into the domain form. A call refuses the fields only a simulated block has, with geth's error.
 */
import { bigIntToBytes, createWithdrawal, setLengthLeft } from '@ethereumjs/util'
import type { BlockOverrideSpec } from '../domain/block-overrides.js'
import { BlockOverrideNotSupportedError } from '../errors.js'
import { parseData, parseQuantity } from '../format/hex.js'
import type { BlockOverrides, CallBlockOverrides } from '../../generated/types.js'

const q = (hex: string | undefined) => (hex === undefined ? undefined : parseQuantity(hex))
const b = (hex: string | undefined) => (hex === undefined ? undefined : parseData(hex))

export function parseBlockOverrides(o: BlockOverrides | CallBlockOverrides): BlockOverrideSpec {
  return {
    number: q(o.number),
    difficulty: q('difficulty' in o ? o.difficulty : undefined),
    time: q(o.time),
    gasLimit: q(o.gasLimit),
    feeRecipient: b(o.feeRecipient),
    // a 32-byte hash, or a quantity as viem sends it
    prevRandao: o.prevRandao === undefined ? undefined : setLengthLeft(bigIntToBytes(BigInt(o.prevRandao)), 32),
    baseFeePerGas: q(o.baseFeePerGas),
    blobBaseFee: q(o.blobBaseFee),
    beaconRoot: b(o.beaconRoot),
    withdrawals: o.withdrawals?.map((w) =>
      createWithdrawal({ index: w.index, validatorIndex: w.validatorIndex, address: w.address, amount: w.amount }),
    ),
  }
}

/** A call's overrides (null or absent: none); geth's -32000 for `beaconRoot` and `withdrawals`. */
export function parseCallBlockOverrides(o: CallBlockOverrides | null | undefined): BlockOverrideSpec | undefined {
  if (o == null) return undefined
  for (const field of ['beaconRoot', 'withdrawals'] as const)
    if (o[field] !== undefined) throw new BlockOverrideNotSupportedError(field)
  return parseBlockOverrides(o)
}
