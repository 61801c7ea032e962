/**
 * What a non-deposit transaction pays on an OP Stack chain besides gas, and where it goes: the L1 data fee
 * (Fjord) to the L1 fee vault, the operator fee (Jovian) to the operator fee vault, and the base fee, which
 * OP chains do not burn, to the base fee vault. Parameters come from L1Block's storage at the block's start
 * (the slots op-geth and op-revm read), so the chain, the GasPriceOracle and receipts agree by construction.
 */
import { Address, bytesToBigInt, createAccount } from '@ethereumjs/util'
import type { StateManagerInterface } from '@ethereumjs/common'
import { BASE_FEE_VAULT, L1_BLOCK, L1_FEE_VAULT, L1_INFO_DEPOSITOR, OPERATOR_FEE_VAULT } from './addresses.js'
import type { L1Cost } from './l1-fee.js'
import { operatorFee } from './operator-fee.js'
import { uint256Bytes } from './source-hash.js'
import type { BlockFeeParams, OpReceiptFees } from '../domain/op-fee-params.js'
import type { UserTxRecord } from '../domain/types.js'

const bits = (word: bigint, offset: bigint, width: bigint) => (word >> offset) & ((1n << width) - 1n)

/** Reads the fee parameters from L1Block's slots 1, 3, 7 and 8; undefined when L1Block is not deployed. */
export async function readBlockFeeParams(state: StateManagerInterface): Promise<BlockFeeParams | undefined> {
  const address = new Address(L1_BLOCK)
  if ((await state.getCode(address)).length === 0) return undefined
  const slot = async (n: bigint) => bytesToBigInt(await state.getStorage(address, uint256Bytes(n)))
  const [basefee, scalars, blobBaseFee, operator] = await Promise.all([slot(1n), slot(3n), slot(7n), slot(8n)])
  return {
    l1BaseFee: basefee,
    blobBaseFee,
    blobBaseFeeScalar: bits(scalars, 64n, 32n),
    baseFeeScalar: bits(scalars, 96n, 32n),
    operatorFeeConstant: bits(operator, 0n, 64n),
    operatorFeeScalar: bits(operator, 64n, 32n),
    daFootprintGasScalar: bits(operator, 96n, 16n),
  }
}

/**
 * What a block of an OP Stack chain reads besides its transactions' own accounts: L1Block (its L1-info
 * deposit writes slots 0-8, the fees read 1, 3, 7, 8), the depositor and the fee vaults. A follower
 * prefetches these in its first batch.
 */
export function opStackReads(): { accounts: Uint8Array[]; slots: { address: Uint8Array; slot: Uint8Array }[] } {
  return {
    accounts: [L1_BLOCK, L1_INFO_DEPOSITOR, BASE_FEE_VAULT, L1_FEE_VAULT, OPERATOR_FEE_VAULT],
    slots: Array.from({ length: 9 }, (_, i) => ({ address: L1_BLOCK, slot: uint256Bytes(BigInt(i)) })),
  }
}

/** Debits the sender and credits the three vaults after a transaction ran; returns its receipt's OP fields. */
export async function chargeOpFees(
  state: StateManagerInterface,
  sender: Uint8Array,
  cost: L1Cost,
  daFootprint: bigint,
  gasUsed: bigint,
  baseFee: bigint,
  params: BlockFeeParams,
): Promise<OpReceiptFees> {
  const opFee = operatorFee(gasUsed, params)
  await adjust(state, sender, -(cost.l1Fee + opFee))
  await adjust(state, L1_FEE_VAULT, cost.l1Fee)
  await adjust(state, OPERATOR_FEE_VAULT, opFee)
  await adjust(state, BASE_FEE_VAULT, gasUsed * baseFee)
  return { ...params, l1Fee: cost.l1Fee, l1GasUsed: cost.l1GasUsed, operatorFee: opFee, daFootprint }
}

async function adjust(state: StateManagerInterface, address: Uint8Array, delta: bigint): Promise<void> {
  if (delta === 0n) return
  const a = new Address(address)
  const account = (await state.getAccount(a)) ?? createAccount({})
  if (account.balance + delta < 0n) throw new Error(`OP fees exceed the balance of ${a}`)
  account.balance += delta
  await state.putAccount(a, account)
}

/**
 * op-geth's buyGas with OP fees: the sender's balance must cover gas, value and the most the L1 and operator
 * fees can come to. Geth's `insufficient funds` text when it does not, else undefined.
 */
export async function opFeeShortfall(
  state: StateManagerInterface,
  record: UserTxRecord,
  l1Fee: bigint,
  params: BlockFeeParams,
): Promise<string | undefined> {
  const tx = record.tx
  const price = 'maxFeePerGas' in tx ? tx.maxFeePerGas : (tx as { gasPrice: bigint }).gasPrice
  // the most the L1 and operator fees can come to: the operator fee at the whole gas limit
  const want = tx.gasLimit * price + tx.value + l1Fee + operatorFee(tx.gasLimit, params)
  const have = (await state.getAccount(new Address(record.sender)))?.balance ?? 0n
  if (have >= want) return undefined
  return `insufficient funds for gas * price + value: address ${new Address(record.sender)} have ${have} want ${want}`
}
