/**
 * Where a chain's state and blocks come from at start: a fresh genesis (the dev genesis, a geth
 * genesis.json with --genesis, either under a --load-state file's accounts), a --data-dir's chain, or an
 * upstream's state at a fork block (--fork-url); and then any --import blocks on top.
 */
import type { Common } from '@ethereumjs/common'
import type { MerklePatriciaTrie } from '@ethereumjs/mpt'
import type { ChainOptions } from './chain-options.js'
import type { ChainLogger } from './logger.js'
import type { DevAccount } from '../domain/types.js'
import { memoryTrie } from '../evm/state-views.js'
import { liveTrie } from '../evm/patches/fields.js'
import type { UpstreamFork } from './fork/upstream-fork.js'
import { createGenesis, type GenesisOptions } from './genesis.js'
import { createGethGenesis, type GenesisFile } from './geth-genesis.js'
import { importFile } from './import-blocks.js'
import { MEMORY_HISTORY_BLOCKS } from '../limits.js'
import { MemoryNodes } from './memory-nodes.js'
import { CountingPruner } from './memory-pruner.js'
import { Preimages } from './persist/preimages.js'
import { readStateFile } from './persist/state-load.js'
import { CanonicalStore } from './store.js'

type Making = {
  common: Common
  /** --genesis's file, else the dev genesis */
  geth: GenesisFile | undefined
  accounts: readonly DevAccount[]
  baseFee: bigint
  /** The dev genesis' extraData and gasless whitelist. */
  genesis?: Pick<GenesisOptions, 'extraData' | 'gasless'>
  logger: ChainLogger
  /** --fork-url's upstream: the chain starts on its state at the fork block, in memory (checkConfig refuses the rest) */
  fork?: UpstreamFork
}

export async function openChainState(options: ChainOptions, making: Making) {
  const { common, geth, accounts, baseFee, genesis: dev, logger, fork } = making
  // --fork-url's and --data-dir's code is loaded only by a chain that uses it
  if (fork) {
    const { createForkGenesis } = await import('./fork/fork-genesis.js')
    const { balance, l1Settings } = options
    const { stateManager, genesis } = await createForkGenesis(fork, { common, accounts, balance, l1Settings })
    return {
      stateManager,
      store: new CanonicalStore(genesis),
      preimages: new Preimages(),
      durable: undefined,
      pruner: undefined,
    }
  }
  const state = options.loadState ? readStateFile(options.loadState) : undefined
  const makeGenesis = (trie: MerklePatriciaTrie = memoryTrie(common), preimages = new Preimages()) =>
    (geth
      ? createGethGenesis(geth, common, trie, preimages)
      : createGenesis({
          common,
          gasLimit: options.gasLimit,
          baseFee,
          accounts,
          balance: options.balance,
          timestamp: options.genesisTimestamp ?? BigInt(Math.floor(Date.now() / 1000)),
          l1Settings: options.l1Settings,
          trie,
          preimages,
          state,
          ...dev,
        })
    ).then((made) => ({ ...made, preimages }))
  const { dataDir, loadState } = options
  const durable = dataDir
    ? await (await import('./persist/open.js')).openDurableChain(dataDir, common, makeGenesis, loadState)
    : undefined
  const nodes = new MemoryNodes()
  const { stateManager, genesis, preimages } = durable ?? (await makeGenesis(memoryTrie(common, nodes)))
  const store = new CanonicalStore(genesis, durable?.history)
  const history = options.history ?? (durable ? 'all' : MEMORY_HISTORY_BLOCKS)
  // --history: in memory by counting nodes (memory-pruner.ts), a data directory's by mark and sweep (prune.ts)
  const pruner =
    history === 'all'
      ? undefined
      : durable
        ? durable.pruner(history, store, logger.warn)
        : new CountingPruner(nodes, liveTrie(stateManager), history, (n) => store.byNumber(n)?.header.stateRoot)
  if (options.importFile !== undefined) await importFile(options.importFile, store, stateManager, common, logger.info)
  return { stateManager, store, preimages, durable, pruner }
}
