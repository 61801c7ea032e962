/**
 * The outermost frame of a read-only call, entered without runCall. For a call of no value, @ethereumjs's
 * runCall and _executeCall spend most of a short call's time on what cannot change its answer: the
 * `beforeMessage`/`afterMessage` events, a depth-0 checkpoint of the journal and of the state (whose undo log
 * then records every write), a spread copy of the message for the interpreter, and after the call the
 * EIP-161 sweep of touched accounts, whose deletions nobody sees because the call's state is dropped. This
 * does what they do that can: sender and recipient written back as _executeCall writes them (so the sender
 * exists for the call as it does under runTx), the recipient's code loaded (7702 delegation included), the
 * interpreter run with the message as is. Nested frames run as shipped. Only for EVMs whose forks have none
 * of the depth-0 charges runCall adds after Prague (EIP-2780, 7928, 8037, Verkle's 6800/7864): `topFrameFits`.
 */
import { type EVM, type EVMResult, Message } from '@ethereumjs/evm'
import { Account, type Address } from '@ethereumjs/util'
import type { Block } from '@ethereumjs/block'
import type { Common } from '@ethereumjs/common'
import { hookRuns } from './hook-runs.js'

/** The forks' depth-0 work runCall does beyond the plain frame: those EVMs keep runCall. */
const DEPTH0_EIPS = [2780, 6800, 7864, 7928, 8037]

export interface TopFrame {
  block: Block
  from: Address
  to: Address
  data: Uint8Array
  gasLimit: bigint
}

/** Whether the fork lets a call's outermost frame skip runCall (see the file's comment). */
export function topFrameFits(common: Common): boolean {
  return !DEPTH0_EIPS.some((eip) => common.isActivatedEIP(eip))
}

/**
 * Runs a value-free call's outermost frame on `evm`, whose state is the call's own and is dropped after. A
 * precompile as the recipient is left to runCall (undefined).
 */
export async function runTopFrame(evm: EVM, frame: TopFrame): Promise<EVMResult | undefined> {
  if (evm.getPrecompile(frame.to)) return undefined
  hookRuns.topFrame++
  const state = evm.stateManager
  evm['_block'] = frame.block
  evm['_tx'] = { gasPrice: 0n, origin: frame.from }
  const message = new Message({
    caller: frame.from,
    to: frame.to,
    value: 0n,
    data: frame.data,
    gasLimit: frame.gasLimit,
    depth: 0,
    selfdestruct: new Map(),
    createdAddresses: new Set(),
  })
  await state.putAccount(frame.from, (await state.getAccount(frame.from)) ?? new Account())
  await state.putAccount(frame.to, (await state.getAccount(frame.to)) ?? new Account())
  await evm['_loadCode'](message)
  const code = message.code as Uint8Array | undefined
  if (!code || code.length === 0)
    return { execResult: { returnValue: new Uint8Array(0), executionGasUsed: 0n, gasRefund: 0n } }
  return { execResult: await evm['runInterpreter'](message) }
}
