/**
 * geth's BlockOverrides in domain form: header fields a call (eth_call, eth_estimateGas, debug_traceCall) or
 * a simulated block (eth_simulateV1) runs under instead of its block's. The wire shapes are the generated
 * CallBlockOverrides and BlockOverrides.
 */
import type { Withdrawal } from '@ethereumjs/util'

export interface BlockOverrideSpec {
  number?: bigint
  /** Pre-merge only: after the merge DIFFICULTY reads prevRandao, so it changes nothing (as geth). */
  difficulty?: bigint
  time?: bigint
  gasLimit?: bigint
  feeRecipient?: Uint8Array
  prevRandao?: Uint8Array
  baseFeePerGas?: bigint
  blobBaseFee?: bigint
  /** eth_simulateV1 only: a call refuses them, as geth. */
  beaconRoot?: Uint8Array
  withdrawals?: Withdrawal[]
}
