/**
 * The local start of a forked chain: its state (a ForkStateManager over an empty trie, reading through to
 * the upstream at the fork block) with the dev accounts funded on top, as anvil does (their nonce and code
 * stay the upstream's), and the OP Stack predeploys installed where the upstream has none (a plain node
 * such as anvil: the sequencer's L1-info deposit and the L1 fee need them); and the store's first block,
 * the fork block itself: its hash, number, timestamp, gas limit and base fee are the upstream's, so the first
 * local block is its child. Only its state root is the local one, which the sequencer builds on.
 */
import { createBlockHeader } from '@ethereumjs/block'
import type { Common } from '@ethereumjs/common'
import { Account, Address } from '@ethereumjs/util'
import { assembleBlock } from '../../domain/block-record.js'
import type { BlockRecord, DevAccount } from '../../domain/types.js'
import { adoptCommon } from '../../evm/chain-common.js'
import { memoryTrie } from '../../evm/state-views.js'
import { L1_BLOCK } from '../../opstack/addresses.js'
import { type L1Settings, nextL1Info } from '../../opstack/l1-origin.js'
import { installPredeploys, predeployAlloc } from '../../opstack/predeploys.js'
import { ForkStateManager } from './fork-state.js'
import type { UpstreamFork } from './upstream-fork.js'

export interface ForkGenesisOptions {
  common: Common
  accounts: readonly DevAccount[]
  balance: bigint
  l1Settings?: L1Settings
}

export async function createForkGenesis(
  fork: UpstreamFork,
  options: ForkGenesisOptions,
): Promise<{ stateManager: ForkStateManager; genesis: BlockRecord }> {
  const { common } = options
  const stateManager = new ForkStateManager(fork.state.snapshotFor(fork.number), common, memoryTrie(common))
  return { stateManager, genesis: await forkGenesis(fork, stateManager, options) }
}

/**
 * Writes the local start over `stateManager` (whose trie is empty and whose upstream is `fork`'s block)
 * and returns the store's first block. anvil_reset's re-fork runs it again on the chain's own manager.
 */
export async function forkGenesis(
  fork: UpstreamFork,
  stateManager: ForkStateManager,
  options: ForkGenesisOptions,
): Promise<BlockRecord> {
  const { common } = options
  const base = fork.block
  // one batch for every account read below, not a round trip each
  await stateManager.upstream.prefetch([...options.accounts.map((a) => a.address), L1_BLOCK])
  for (const { address } of options.accounts) {
    const at = new Address(address)
    const account = (await stateManager.getAccount(at)) ?? new Account()
    account.balance = options.balance
    await stateManager.putAccount(at, account)
  }
  if ((await stateManager.getCode(new Address(L1_BLOCK))).length === 0) {
    const info = nextL1Info(base.header.timestamp, undefined, options.l1Settings)
    await installPredeploys(stateManager, predeployAlloc(info, options.accounts[0]?.address ?? new Uint8Array(20)))
  }
  const stateRoot = await stateManager.getStateRoot()
  const header = adoptCommon(
    createBlockHeader({ ...base.header.toJSON(), stateRoot }, { common, freeze: false }),
    common,
  )
  return assembleBlock(header, base.hash, base.txs, base.receipts)
}
