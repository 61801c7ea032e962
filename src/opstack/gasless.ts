/**
 * X Layer's gasless transactions, as okx/optimism 3349a7c (the submodule of okx/xlayer-reth b85080e) runs them:
 * a non-deposit transaction whose fee cap is 0 runs gasless when the whitelist predeploy, asked by a system
 * call `getGaslessAllowance(tx.to, tx.input)` (rust/alloy-op-evm/src/block/xlayer_gasless_contract.rs),
 * answers (true, gasLimit) with the transaction's gas limit at most gasLimit. A create never is; an answer
 * that is not two words with a canonical `true` is "no". The whitelist's address follows the chain id.
 */
import { Address, bytesToHex, hexToBytes } from '@ethereumjs/util'
import { type Block, createBlock } from '@ethereumjs/block'
import type { VM } from '@ethereumjs/vm'
import type { TypedTransaction } from '@ethereumjs/tx'
import type { TxRecord } from '../domain/types.js'
import type { CallRequest } from '../domain/call-request.js'
import { isUserTx } from '../domain/deposit-transaction.js'

/** X Layer mainnet (196) and testnet (1952): the whitelist predeploy. */
const XLAYER_GASLESS_CONTRACT = hexToBytes('0x19787404b0c70021b4752028f7e3a92313885B27')
/** Every other chain id (X Layer's devnets): the whitelist proxy's CREATE2 address. */
const DEVNET_GASLESS_CONTRACT = hexToBytes('0xA9092BC02e2000a3F8996D1991621E9A03Ef2dfE')

/** EIP-4788's SYSTEM_ADDRESS: the caller of the allowance query. */
const SYSTEM_ADDRESS = new Address(hexToBytes('0xfffffffffffffffffffffffffffffffffffffffe'))
/** Gas of a system call (revm's transact_system_call). */
const SYSTEM_CALL_GAS = 30_000_000n
/** keccak256("getGaslessAllowance(address,bytes)")[:4] */
const SELECTOR = hexToBytes('0xbad12ebe')

export interface GaslessAllowance {
  allowed: boolean
  gasLimit: bigint
}

const NOT_GASLESS: GaslessAllowance = { allowed: false, gasLimit: 0n }

export function gaslessContract(chainId: bigint): Uint8Array {
  return chainId === 196n || chainId === 1952n ? XLAYER_GASLESS_CONTRACT : DEVNET_GASLESS_CONTRACT
}

/** A transaction's fee cap: maxFeePerGas, or gasPrice for legacy and EIP-2930. */
function feeCap(tx: TypedTransaction): bigint {
  return 'maxFeePerGas' in tx ? tx.maxFeePerGas : (tx as { gasPrice: bigint }).gasPrice
}

/** Zero-priced and not a deposit: the transactions the whitelist is asked about. */
export function isZeroPriced(record: TxRecord): boolean {
  return isUserTx(record) && feeCap(record.tx) === 0n
}

/** The calldata of getGaslessAllowance(to, input). */
function allowanceCalldata(to: Uint8Array, input: Uint8Array): Uint8Array {
  const words = Math.ceil(input.length / 32)
  const out = new Uint8Array(4 + 32 * 3 + words * 32)
  out.set(SELECTOR, 0)
  out.set(to, 16)
  out[67] = 64
  for (let i = 0, n = BigInt(input.length); i < 8; i++, n >>= 8n) out[99 - i] = Number(n & 0xffn)
  out.set(input, 100)
  return out
}

/** The (allowed, gasLimit) of a return value; anything malformed is "not gasless". */
export function decodeAllowance(output: Uint8Array): GaslessAllowance {
  if (output.length < 64) return NOT_GASLESS
  const allowed = output.subarray(0, 31).every((b) => b === 0) && output[31] === 1
  let gasLimit = 0n
  for (let i = 56; i < 64; i++) gasLimit = (gasLimit << 8n) | BigInt(output[i]!)
  return { allowed, gasLimit }
}

/**
 * Asks the whitelist about `tx` on the VM's current state, in a checkpoint that is reverted: the query
 * leaves neither state nor warm addresses behind for the transaction that runs after it.
 */
export async function queryAllowance(vm: VM, block: Block, tx: TypedTransaction): Promise<GaslessAllowance> {
  if (tx.to === undefined) return NOT_GASLESS
  const journal = vm.evm.journal
  await journal.checkpoint()
  try {
    const result = await vm.evm.runCall({
      caller: SYSTEM_ADDRESS,
      to: new Address(gaslessContract(vm.common.chainId())),
      data: allowanceCalldata(tx.to.bytes, tx.data),
      gasLimit: SYSTEM_CALL_GAS,
      block,
    })
    return result.execResult.exceptionError ? NOT_GASLESS : decodeAllowance(result.execResult.returnValue)
  } catch {
    // revm's system call failing at the EVM/DB level degrades to "not gasless" (get_gasless_allowance)
    return NOT_GASLESS
  } finally {
    await journal.revert()
  }
}

/** The allowance query as an eth_call request (the pool asks at its head state); undefined for a create. */
export function allowanceRequest(chainId: bigint, tx: TypedTransaction): CallRequest | undefined {
  if (tx.to === undefined) return undefined
  return {
    from: SYSTEM_ADDRESS.bytes,
    to: gaslessContract(chainId),
    data: allowanceCalldata(tx.to.bytes, tx.data),
    gas: SYSTEM_CALL_GAS,
  }
}

export const NO_ALLOWANCE: GaslessAllowance = NOT_GASLESS

/** Whether a zero-priced transaction runs gasless with this answer (GaslessContract::is_gasless). */
export function coveredBy(allowance: GaslessAllowance, tx: TypedTransaction): boolean {
  return allowance.allowed && tx.gasLimit <= allowance.gasLimit
}

export const gaslessContractHex = (chainId: bigint) => bytesToHex(gaslessContract(chainId))

/**
 * The block context a replayed transaction runs in (debug_trace*): the block itself, or for a gasless one the
 * block under a base fee of 0, as it ran (okx/optimism 3349a7c rust/op-reth/crates/rpc/src/eth/gasless.rs
 * makes re-execution gasless-aware for the same reason: otherwise it fails `max fee per gas less than block
 * base fee`).
 */
export async function replayContext(vm: VM, block: Block, tx: TypedTransaction): Promise<Block> {
  if (feeCap(tx) !== 0n || (block.header.baseFeePerGas ?? 0n) === 0n) return block
  if (!coveredBy(await queryAllowance(vm, block, tx), tx)) return block
  return createBlock(
    { header: { ...block.header.toJSON(), baseFeePerGas: 0n } as never },
    { common: vm.common, skipConsensusFormatValidation: true },
  )
}
