/**
 * What runTx does to a call's sender and recipient before the call's code runs, when the call pays: fee
 * fields (the gas bought at the effective price) or a value. The interpreter starts from the accounts this
 * gives, so a paying call answers as it does under runTx (BALANCE, SELFBALANCE, GASPRICE, CALLVALUE) without
 * a transaction, a receipt or a checkpoint: wallets send eth_estimateGas with their fee fields, and its
 * search ran ~20 runTx's of ~0.8 ms each. A call runTx refuses (a fee cap below the block's base fee, a tip
 * above the fee cap, a balance short of the cost when fee fields are given) gets undefined here, and runTx's
 * path then answers it with geth's error. Without fee fields runTx skips the balance checks and raises a
 * short balance to the cost instead (geth's eth_call pays nothing then either).
 */
import { Account, createPartialAccountFromRLP } from '@ethereumjs/util'
import { type CallRequest, impliedTxType, paysFees } from '../../domain/call-request.js'

/** The call as its frames see it: the accounts after the gas purchase and the transfer, the price and value. */
export interface Paid {
  value: bigint
  gasPrice: bigint
  /** The sender after runTx's gas purchase, nonce bump and the value sent (the recipient too when they are one). */
  sender: Account
  /** The recipient after the value came in; undefined when no value moves (its account is read as it is). */
  recipient: Account | undefined
}

/** Whether runTx would move balances before the call: fee fields or a value. */
export function pays(request: CallRequest): boolean {
  return paysFees(request) || (request.value ?? 0n) !== 0n
}

/**
 * The paying call's start, as runTx makes it for a transaction of `gasLimit` gas built as run.ts builds it
 * (type 0 or 2), under a block whose base fee is `baseFee` (the header's with fee fields, else 0), from
 * `sender` to `recipient` (undefined: no account); undefined where runTx throws.
 */
export function paymentOf(
  request: CallRequest,
  gasLimit: bigint,
  baseFee: bigint,
  sender: Account | undefined,
  recipient: Account | undefined,
  sameAccount: boolean,
): Paid | undefined {
  const value = request.value ?? 0n
  const skipBalance = !paysFees(request)
  let gasPrice: bigint
  let maxCost = value
  if (impliedTxType(request) === 2) {
    const maxFee = request.maxFeePerGas ?? request.maxPriorityFeePerGas ?? 0n
    const tip = request.maxPriorityFeePerGas ?? 0n
    if (tip > maxFee || maxFee < baseFee) return undefined
    gasPrice = baseFee + (tip < maxFee - baseFee ? tip : maxFee - baseFee)
    maxCost += gasLimit * maxFee
  } else {
    gasPrice = request.gasPrice ?? 0n
    if (gasPrice < baseFee) return undefined
  }
  let balance = sender?.balance ?? 0n
  for (const cost of [gasLimit * gasPrice + value, maxCost]) {
    if (balance >= cost) continue
    if (!skipBalance) return undefined
    balance = cost
  }
  balance -= gasLimit * gasPrice + value
  const nonce = (sender?.nonce ?? 0n) + 1n
  if (sameAccount) return { value, gasPrice, sender: copy(sender, nonce, balance + value), recipient: undefined }
  return {
    value,
    gasPrice,
    sender: copy(sender, nonce, balance),
    recipient: value === 0n ? undefined : copy(recipient, recipient?.nonce ?? 0n, (recipient?.balance ?? 0n) + value),
  }
}

/**
 * `account` with a new nonce and balance; its other fields as they are, unloaded ones too (a follower's
 * upstream-backed accounts leave the storage root out, and its getter throws): copied through the partial
 * encoding, @ethereumjs's public way to carry fields that are not there.
 */
function copy(account: Account | undefined, nonce: bigint, balance: bigint): Account {
  const copied = account ? createPartialAccountFromRLP(account.serializeWithPartialInfo()) : new Account()
  copied.nonce = nonce
  copied.balance = balance
  return copied
}
