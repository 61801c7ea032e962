/**
 * A simulated call as the transaction geth would put in the block: geth's defaults filled in (nonce from the
 * state, gas from what the block has left, fee fields zero), the type its fields imply (2 unless `gasPrice`
 * makes it legacy, blob or set-code ones by their fields), unsigned (v, r, s zero), hashed as such.
 */
import { paramsBlock } from '@ethereumjs/block'
import type { Common, ParamsDict } from '@ethereumjs/common'
import { paramsEVM } from '@ethereumjs/evm'
import { createTx, paramsTx, type TypedTransaction } from '@ethereumjs/tx'
import { Address } from '@ethereumjs/util'
import { paramsVM } from '@ethereumjs/vm'
import { authorizationListData, type CallRequest } from '../../../domain/call-request.js'
import type { TxRecord } from '../../../domain/types.js'
import { ChainIdMismatchError } from '../../../errors.js'
import { keccak256 } from '../../crypto.js'
import { commonWithOwnParams } from '../../patches/fields.js'
import { setKnownSender } from '../../patches/known-sender.js'

/**
 * Transaction params with no EIP-7825 cap on a transaction's gas: geth lets a simulated call use all the gas
 * its block has left.
 */
const SIMULATION_PARAMS: ParamsDict = {
  ...paramsTx,
  7825: { ...paramsTx[7825], maxTransactionGasLimit: 2 ** 62 },
}

const simulationCommons = new WeakMap<Common, Common>()

/**
 * What a request's VM at `common`'s fork and everything it makes (transactions, headers, the EVM) share: the
 * params of blocks, the VM, the EVM and SIMULATION_PARAMS merged once into params of its own, which the chain's
 * Commons do not see; its copies skip the params merge each @ethereumjs constructor runs (~0.3 ms a
 * transaction). A copy per request: the VM listens to its Common's events, and goes with the request.
 */
export function simulationCommon(common: Common): Common {
  let shared = simulationCommons.get(common)
  // the chain's own Common moves from fork to fork while a chain is imported
  if (!shared || shared.hardfork() !== common.hardfork()) {
    shared = commonWithOwnParams(common, [paramsBlock, paramsVM, paramsEVM, SIMULATION_PARAMS])
    simulationCommons.set(common, shared)
  }
  return shared.copy()
}

/** The top nonce (2^64 - 1): a sender's nonce wraps past it to zero, as geth's uint64 does. */
export const NONCE_MAX = (1n << 64n) - 1n

/** The call with every field geth's CallDefaults would set (gasPrice beside 1559 fees is refused at parsing). */
export interface FilledCall extends CallRequest {
  from: Uint8Array
  nonce: bigint
  gas: bigint
  value: bigint
  chainId: bigint
}

export function fillCall(request: CallRequest, nonce: bigint, gas: bigint, common: Common): FilledCall {
  if (request.chainId !== undefined && request.chainId !== common.chainId())
    throw new ChainIdMismatchError(request.chainId, common.chainId())
  const london = common.isActivatedEIP(1559)
  return {
    ...request,
    from: request.from ?? new Uint8Array(20),
    nonce: request.nonce ?? nonce,
    gas,
    value: request.value ?? 0n,
    chainId: common.chainId(),
    ...(london && request.gasPrice === undefined
      ? { maxFeePerGas: request.maxFeePerGas ?? 0n, maxPriorityFeePerGas: request.maxPriorityFeePerGas ?? 0n }
      : { gasPrice: request.gasPrice ?? 0n }),
    ...(request.blobVersionedHashes ? { maxFeePerBlobGas: request.maxFeePerBlobGas ?? 0n } : {}),
  }
}

/** geth's ToTransaction(DynamicFeeTxType): the type a call's fields choose. */
function txType(call: FilledCall): number {
  if (call.gasPrice !== undefined) return 0
  if (call.authorizationList) return 4
  if (call.blobVersionedHashes) return 3
  return 2
}

/** The unsigned transaction, sent "from" the call's sender, as a block record holds it. */
export function simulatedTx(call: FilledCall, common: Common): TxRecord & { tx: TypedTransaction } {
  const type = txType(call)
  const tx = createTx(
    {
      type,
      // @ethereumjs refuses the top nonce (EIP-2681), which geth lets a call without validation use: set below
      nonce: call.nonce >= NONCE_MAX ? 0n : call.nonce,
      gasLimit: call.gas,
      to: call.to,
      value: call.value,
      data: call.data ?? new Uint8Array(),
      ...(type === 0
        ? { gasPrice: call.gasPrice }
        : {
            chainId: call.chainId,
            accessList: (call.accessList ?? []).map((e) => [e.address, e.storageKeys]),
            maxFeePerGas: call.maxFeePerGas,
            maxPriorityFeePerGas: call.maxPriorityFeePerGas,
          }),
      ...(type === 4 ? { authorizationList: authorizationListData(call.authorizationList ?? []) } : {}),
      ...(type === 3 ? { blobVersionedHashes: call.blobVersionedHashes, maxFeePerBlobGas: call.maxFeePerBlobGas } : {}),
    } as never,
    { common, freeze: false },
  )
  if (call.nonce >= NONCE_MAX) Object.assign(tx, { nonce: call.nonce })
  const raw = tx.serialize()
  const hash = keccak256(raw)
  const sender = new Address(call.from)
  // unsigned: the sender is what the caller says, the hash that of the zero signature, as geth's
  setKnownSender(tx, sender)
  Object.assign(tx, { hash: () => hash })
  return { hash, tx, sender: call.from, raw }
}
