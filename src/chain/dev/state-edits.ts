/**
 * State edits without a transaction (anvil_setBalance, _setCode, _setNonce, _setStorageAt, _loadState).
 * One edit is written twice, between flashblocks: over the latest block's state (what `latest` reads)
 * and over the open block's (what `pending` on /flashblocks reads, and what the next flashblock builds
 * on). Neither block gets a new header: their roots are aliased to the edited ones (root-aliases.ts).
 */
import type { MerkleStateManager } from '@ethereumjs/statemanager'
import { type Account, Address, createAccount, equalsBytes } from '@ethereumjs/util'
import type { VM } from '@ethereumjs/vm'
import { stateAt } from '../../evm/state-views.js'
import type { EmbeddedExecutor } from '../../evm/execution/executor.js'
import type { PendingStore } from '../../pending/store.js'
import type { TxPool } from '../pool/pool.js'
import type { CanonicalStore } from '../store.js'
import type { RootAliases } from './root-aliases.js'

/** Writes through the state manager it is given; the caller checkpoints and commits. */
export type StateEdit = (state: MerkleStateManager) => Promise<void>

export interface EditedChain {
  readonly vm: VM
  readonly store: CanonicalStore
  readonly pending: PendingStore
  readonly pool: TxPool
  readonly roots: RootAliases
  readonly localExecutor: EmbeddedExecutor
}

/**
 * Applies `edit` to the latest and the open block's state; call it inside the sequencer's lock. Returns
 * true when a block is open (its rebuild after a revert must repeat the edit at this point).
 */
export async function applyEdit(chain: EditedChain, edit: StateEdit): Promise<boolean> {
  const state = chain.vm.stateManager as MerkleStateManager
  // where execution stands: the open block's state after its newest flashblock, or the latest block's
  const current = await state.getStateRoot()
  const latest = chain.store.latest().header.stateRoot
  const latestState = chain.roots.resolve(latest)
  const editedLatest = await editAt(state, latestState, edit)
  chain.roots.set(latest, editedLatest)
  const open = !equalsBytes(current, latestState)
  if (open) {
    const editedOpen = await editAt(state, current, edit)
    const published = chain.pending.current()?.stateRoot
    if (published) chain.roots.set(published, editedOpen)
  }
  chain.pool.rebase(stateAt(chain.vm, await state.getStateRoot()))
  chain.localExecutor.forgetCalls()
  return open
}

/** The root of `root`'s state with `edit` applied; the state manager is left at it. */
async function editAt(state: MerkleStateManager, root: Uint8Array, edit: StateEdit): Promise<Uint8Array> {
  await state.setStateRoot(root)
  await state.checkpoint()
  try {
    await edit(state)
    await state.commit()
  } catch (err) {
    await state.revert()
    throw err
  }
  return state.getStateRoot()
}

/** The account at `address` (created when absent) changed by `change`. */
export function accountEdit(address: Uint8Array, change: (account: Account) => void): StateEdit {
  return async (state) => {
    const at = new Address(address)
    const account = (await state.getAccount(at)) ?? createAccount({})
    change(account)
    await state.putAccount(at, account)
  }
}

export function codeEdit(address: Uint8Array, code: Uint8Array): StateEdit {
  return async (state) => {
    const at = new Address(address)
    if (!(await state.getAccount(at))) await state.putAccount(at, createAccount({}))
    await state.putCode(at, code)
  }
}

export function storageEdit(address: Uint8Array, slot: Uint8Array, value: Uint8Array): StateEdit {
  return async (state) => {
    const at = new Address(address)
    if (!(await state.getAccount(at))) await state.putAccount(at, createAccount({}))
    await state.putStorage(at, slot, value)
  }
}
