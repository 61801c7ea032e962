/**
 * evm_snapshot / evm_revert over the whole chain, flashblocks included. A snapshot holds the canonical
 * height, the root aliases of the edits so far, the pool, and the open block as the steps that built it
 * (each flashblock's transactions, and edits made between them). A revert forgets the blocks above the
 * height, puts the state back (trie nodes are not deleted in memory unless --history prunes them, so an old root is
 * the old state; dev-node.ts refuses a pruned one),
 * rebuilds the open block step by step under a new payload id (the flashblocks are published again, so
 * `pending` on /flashblocks is what it was) and admits the pool's transactions again. Also here: dropping
 * an open block nothing was preconfirmed in, so the next block opens with new settings.
 */
import { randomBytes } from 'node:crypto'
import type { MerkleStateManager } from '@ethereumjs/statemanager'
import { stateAt } from '../../evm/state-views.js'
import type { BlockParams } from '../../evm/flash-builder.js'
import type { TxRecord, UserTxRecord } from '../../domain/types.js'
import { nextBaseFee } from '../../opstack/base-fee.js'
import { heldDeposits } from '../../opstack/block-opening.js'
import { isUserTx } from '../../domain/deposit-transaction.js'
import type { DevChain } from './dev-chain.js'
import type { ReplayStep } from '../sequencer.js'

export interface Snapshot {
  readonly height: bigint
  readonly hash: Uint8Array
  /** The head's state root as edited then: what --history's passes keep for it. */
  readonly root: Uint8Array
  readonly roots: ReadonlyMap<string, Uint8Array>
  readonly open?: { readonly params: BlockParams; readonly steps: readonly ReplayStep[] }
  readonly pool: { readonly txs: readonly UserTxRecord[]; readonly deposits: readonly TxRecord[] }
}

/** The chain as it stands; call inside the sequencer's lock. `steps`: how the open block was built so far. */
export function takeSnapshot(chain: DevChain, steps: readonly ReplayStep[]): Snapshot {
  const head = chain.store.latest()
  const params = chain.sequencer.openBlockParams
  return {
    height: head.number,
    hash: head.hash,
    root: chain.roots.resolve(head.header.stateRoot),
    roots: chain.roots.copy(),
    ...(params ? { open: { params, steps: [...steps] } } : {}),
    pool: chain.pool.entries(),
  }
}

/** Puts the chain back to `snapshot`; call inside the sequencer's lock, only on a rewindable store. */
export async function rewind(chain: DevChain, snapshot: Snapshot, reason: string): Promise<void> {
  const { sequencer, store, pending, pool, roots, vm } = chain
  sequencer.discardOpen()
  pool.clear(reason)
  store.truncate(snapshot.height)
  pending.clear()
  roots.restore(snapshot.roots)
  const head = store.latest()
  const root = roots.resolve(head.header.stateRoot)
  await (vm.stateManager as MerkleStateManager).setStateRoot(root)
  pool.setHead({ state: stateAt(vm, root), baseFee: nextBaseFee(head.header), gasLimit: head.header.gasLimit })
  chain.localExecutor.forgetCalls()
  if (snapshot.open) {
    // a new payload id: to a follower this is a new block at that height, not a repeat of indexes it has
    const params = { ...snapshot.open.params, payloadId: new Uint8Array(randomBytes(8)) }
    await sequencer.replay(params, snapshot.open.steps)
  }
  pool.returnDeposits(snapshot.pool.deposits)
  for (const tx of snapshot.pool.txs) {
    // the state is the snapshot's, so each is admitted as it was then; one that is not is left out
    await pool.admit(tx).catch(() => {})
  }
}

/**
 * A setting for the next block (time, gas limit, base fee, coinbase) reaches the block already open when
 * nothing but deposits is in it: that block is dropped (its user deposits go back to the pool) and the
 * next one opens with the new settings. One holding user transactions keeps its own: they were
 * preconfirmed in it. Not on a data directory, whose journal already holds the open block. Call inside
 * the sequencer's lock; true when a block was dropped.
 */
export async function discardUntouchedBlock(chain: DevChain): Promise<boolean> {
  const { sequencer, pending, pool, store, roots, nextBlock, vm } = chain
  const open = pending.current()
  if (sequencer.openBlock === undefined || !store.rewindable) return false
  if (open?.block.txs.some((tx) => isUserTx(tx))) return false
  sequencer.discardOpen()
  pending.clear()
  pool.returnDeposits(heldDeposits(open?.block.txs ?? []))
  const head = store.latest()
  const root = roots.resolve(head.header.stateRoot)
  await (vm.stateManager as MerkleStateManager).setStateRoot(root)
  // admission checks against the block that opens next
  const baseFee = nextBlock.baseFee ?? nextBaseFee(head.header)
  const gasLimit = nextBlock.gasLimit ?? head.header.gasLimit
  pool.setHead({ state: stateAt(vm, root), baseFee, gasLimit })
  return true
}
