/**
 * One throw-away execution of an unsigned transaction on a read-only view of a committed state root:
 * the common ground of eth_call and eth_estimateGas. It never touches the sequencer's VM or journal, so
 * calls run concurrently with block building.
 */
import type { BlockHeader } from '@ethereumjs/block'
import { createTx, type TypedTransaction } from '@ethereumjs/tx'
import { Address } from '@ethereumjs/util'
import { createVM, runTx, type RunTxResult, type VM } from '@ethereumjs/vm'
import type { StateManagerInterface } from '@ethereumjs/common'
import type { EVMMockBlockchainInterface } from '@ethereumjs/evm'
import { callCommon, commonAt, throwawayVmCommon } from '../chain-common.js'
import { stateAt } from '../state-views.js'
import { setKnownSender } from '../patches/known-sender.js'
import type { VmPool } from './vm-pool.js'
import type { CallEvms } from './fast-call.js'
import type { StateSource } from './call-state.js'
import {
  authorizationListData,
  impliedTxType,
  paysFees,
  type CallRequest,
  type StateOverrideSpec,
} from '../../domain/call-request.js'
import { gethPrecheckError } from './revert.js'
import { applyStateOverrides } from './state-overrides.js'
import { withBudget } from './budget.js'
import { blockContext } from './block-context.js'
import { CALL_TIMEOUT_MS } from '../../limits.js'
import { ExecutionTimeoutError } from '../../errors.js'

/**
 * Where an execution runs: the chain's VM (for its common, node store and BLOCKHASH), its pool of warm
 * VMs, a state root and a header.
 */
export interface ExecutionEnv {
  vm: VM
  vms: VmPool
  stateRoot: Uint8Array
  header: BlockHeader
  /** The chain's shared read view of `stateRoot`, and EVMs for plain calls on it (fast-call.ts). */
  view?: StateSource
  calls?: CallEvms
  /** Reads of the state when it is not the trie at stateRoot (a follower's upstream-backed state). */
  readState?: () => StateManagerInterface
  /**
   * Set when a call's block overrides made `header` (block-overrides.ts): a header of one request, whose
   * answers are not memoised; `blockHashes` is BLOCKHASH's view when the number moved.
   */
  overridden?: { blockHashes?: EVMMockBlockchainInterface }
  /** Each request's time budget (ms; geth's --rpc.evmtimeout, 0 = none); default CALL_TIMEOUT_MS. */
  timeoutMs?: number
}

/** The time budget of a request on `env`. */
export function callTimeoutOf(env: ExecutionEnv): number {
  return env.timeoutMs ?? CALL_TIMEOUT_MS
}

/**
 * Runs `request` with `gasLimit` on the env's state, leaving it as it was. Without fee fields the call pays
 * nothing (geth's NoBaseFee for calls): the block context then has a zero base fee.
 */
export async function execute(
  env: ExecutionEnv,
  request: CallRequest,
  gasLimit: bigint,
  overrides?: StateOverrideSpec,
  options: RunOptions = {},
): Promise<RunTxResult> {
  const common = commonAt(env.vm.common, env.header)
  const blockHashes = env.overridden?.blockHashes
  if (!overrides && !blockHashes)
    return env.vms.run(env.stateRoot, (vm) => executeOn(vm, env, request, gasLimit, options), common)
  // overrides rewrite accounts (and may move precompiles), a moved block number BLOCKHASH: a VM of its own,
  // never returned to the pool, its writes reverted all the same
  const stateManager = env.readState?.() ?? stateAt(env.vm, env.stateRoot)
  await stateManager.checkpoint()
  try {
    const blockchain = (blockHashes ?? env.vm.blockchain) as VM['blockchain']
    const vm = await createVM({ common: throwawayVmCommon(common), stateManager, blockchain })
    await applyStateOverrides(vm, overrides)
    return await executeOn(vm, env, request, gasLimit, options)
  } finally {
    await stateManager.revert()
  }
}

/**
 * `reportAccessList`: the result carries every address and slot the run touched (eth_createAccessList).
 * `timeoutMs`: the run's time budget (withBudget), default the env's; `deadline` (performance.now()
 * time): one it shares with the other runs of its request instead.
 */
export type RunOptions = { reportAccessList?: boolean; timeoutMs?: number; deadline?: number }

export async function executeOn(
  vm: VM,
  env: ExecutionEnv,
  request: CallRequest,
  gasLimit: bigint,
  options: RunOptions,
): Promise<RunTxResult> {
  const common = vm.common
  const stateManager = vm.stateManager
  const from = new Address(request.from ?? new Uint8Array(20))
  const fees = paysFees(request)
  const block = blockContext(env.header, fees, common)
  const nonce = request.nonce ?? (await stateManager.getAccount(from))?.nonce ?? 0n
  const tx = buildTx(request, nonce, gasLimit, common)
  // an unsigned transaction "from" anyone: the sender is what the caller says it is
  setKnownSender(tx, from)
  try {
    return await withBudget(
      vm.evm,
      options.timeoutMs ?? callTimeoutOf(env),
      () =>
        runTx(vm, {
          tx,
          block,
          skipNonce: true,
          skipBalance: !fees,
          skipBlockGasLimitValidation: true,
          skipHardForkValidation: true,
          reportAccessList: options.reportAccessList,
        }),
      options.deadline,
    )
  } catch (err) {
    throw err instanceof ExecutionTimeoutError ? err : gethPrecheckError(err)
  }
}

function buildTx(request: CallRequest, nonce: bigint, gasLimit: bigint, common: VM['common']): TypedTransaction {
  const type = impliedTxType(request) ?? (request.accessList ? 1 : 0)
  const base = {
    nonce,
    gasLimit,
    to: request.to,
    value: request.value ?? 0n,
    data: request.data ?? new Uint8Array(),
    accessList: request.accessList?.map((e) => [e.address, e.storageKeys] as [Uint8Array, Uint8Array[]]),
  }
  const fees =
    type >= 2
      ? {
          maxFeePerGas: request.maxFeePerGas ?? request.maxPriorityFeePerGas ?? 0n,
          maxPriorityFeePerGas: request.maxPriorityFeePerGas ?? 0n,
        }
      : { gasPrice: request.gasPrice ?? 0n }
  return createTx(
    {
      type,
      ...base,
      ...fees,
      ...(type === 4 ? { authorizationList: authorizationListData(request.authorizationList ?? []) } : {}),
      ...(type === 3
        ? { blobVersionedHashes: request.blobVersionedHashes ?? [], maxFeePerBlobGas: request.maxFeePerBlobGas ?? 0n }
        : {}),
    } as never,
    { common: callCommon(common), freeze: false },
  )
}
