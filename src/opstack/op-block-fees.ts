/**
 * One block's OP Stack accounting while it is built: the fee parameters (read from L1Block once, after the
 * block's L1-info deposit ran, as op-geth's cost function does), what each user transaction owes beyond gas,
 * and the block's Jovian DA footprint, which may not pass the gas limit (op-geth's miner skips the sender
 * for this block; a transaction that could never fit is dropped). The FastLZ size is computed once per
 * transaction and serves the DA check, the affordability check and the charge. A gasless transaction (X Layer)
 * counts in the DA footprint but pays nothing and needs no balance for fees: op-revm skips its L1 and operator
 * fee charge (okx/optimism 3349a7c rust/op-revm/src/handler.rs); its receipt still shows the L1 fee computed,
 * as op-reth's receipt builder does for every transaction.
 */
import type { StateManagerInterface } from '@ethereumjs/common'
import type { UserTxRecord } from '../domain/types.js'
import { daBytes } from './da-footprint.js'
import { fjordL1Cost, type L1Cost } from './l1-fee.js'
import { chargeOpFees, opFeeShortfall, readBlockFeeParams } from './op-fees.js'
import type { BlockFeeParams, OpReceiptFees } from '../domain/op-fee-params.js'

/** Why a transaction may not run now; `drop`: it never will. */
export interface OpRefusal {
  reason: string
  drop: boolean
}

export class OpBlockFees {
  /** Σ DA footprint of the user transactions so far: the header's `blobGasUsed`. */
  daFootprint = 0n
  private params: BlockFeeParams | undefined
  private read = false
  private candidate: { record: UserTxRecord; cost: L1Cost; footprint: bigint } | undefined

  constructor(private readonly gasLimit: bigint) {}

  /** The block's fee parameters once read; undefined before the first user transaction or without L1Block. */
  get feeParams(): BlockFeeParams | undefined {
    return this.params
  }

  /** Checks `record` against the DA limit and the sender's balance; undefined when it may run. */
  async refusal(state: StateManagerInterface, record: UserTxRecord, gasless = false): Promise<OpRefusal | undefined> {
    if (!this.read) {
      this.params = await readBlockFeeParams(state)
      this.read = true
    }
    this.candidate = undefined
    const params = this.params
    if (!params) return undefined
    const cost = fjordL1Cost(record.raw, params)
    const footprint = daBytes(cost.estimatedSizeScaled) * params.daFootprintGasScalar
    if (footprint > this.gasLimit) return { reason: 'transaction DA footprint exceeds block gas limit', drop: true }
    if (this.daFootprint + footprint > this.gasLimit)
      return { reason: 'transaction DA footprint exceeds available block DA footprint', drop: false }
    const shortfall = gasless ? undefined : await opFeeShortfall(state, record, cost.l1Fee, params)
    if (shortfall) return { reason: shortfall, drop: true }
    this.candidate = { record, cost, footprint }
    return undefined
  }

  /** After the transaction `refusal` passed has run: charges it and counts its footprint; its receipt's fields. */
  async charge(
    state: StateManagerInterface,
    record: UserTxRecord,
    gasUsed: bigint,
    baseFee: bigint,
    gasless = false,
  ): Promise<OpReceiptFees | undefined> {
    const candidate = this.candidate
    this.candidate = undefined
    if (!this.params || candidate?.record !== record) return undefined
    this.daFootprint += candidate.footprint
    const { cost, footprint } = candidate
    if (gasless)
      return { ...this.params, l1Fee: cost.l1Fee, l1GasUsed: cost.l1GasUsed, operatorFee: 0n, daFootprint: footprint }
    return chargeOpFees(state, record.sender, cost, footprint, gasUsed, baseFee, this.params)
  }
}
