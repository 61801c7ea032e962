/**
 * Assembles the embedded chain from its options: the network's parameters, a geth genesis (--genesis) or a
 * fork point (--fork-url) deciding the Common and the genesis, the state (in memory or --data-dir), the VM,
 * the pool (with the gasless whitelist as its gate on an OP chain) and the Chain over them; a data directory's
 * block in progress is restored before the chain is handed out.
 */
import type { EVM } from '@ethereumjs/evm'
import { createVM } from '@ethereumjs/vm'
import { interpreterByDefault } from '../evm/interpreter/call.js'
import { patchBlockEvm, patchStateStorage } from '../evm/patches/install.js'
import { createChainCommon } from '../evm/chain-common.js'
import { stateAt } from '../evm/state-views.js'
import { liveTrie } from '../evm/patches/fields.js'
import { skipUnchangedStorage, skipUnchangedWrites } from '../evm/patches/unchanged-writes.js'
import { type ChainEvents, TypedEmitter } from '../evm/events.js'
import { VmPool } from '../evm/execution/vm-pool.js'
import { GASLESS_BLOCK_GAS_LIMIT } from '../limits.js'
import { nextBaseFee } from '../opstack/base-fee.js'
import { encodeExtraData } from '../opstack/eip1559-params.js'
import { gaslessContractHex } from '../opstack/gasless.js'
import { NETWORKS, type NetworkPreset, presetOfChain } from '../opstack/networks.js'
import { deriveDevAccounts } from './accounts.js'
import { StoreBlockHashes } from './block-hashes.js'
import { Chain } from './chain.js'
import type { ChainOptions } from './chain-options.js'
import { gethGenesisCommon, readGethGenesis } from './geth-genesis.js'
import { consoleLogger, silent } from './logger.js'
import { openChainState } from './open-state.js'
import { restoreInProgress } from './persist/restore.js'
import { TxPool } from './pool/pool.js'

/** The extraData of the dev chain's blocks: the configured EIP-1559 parameters, in Jovian's form once Jovian is on. */
function blockExtraData(options: ChainOptions, preset: NetworkPreset): (timestamp: bigint) => Uint8Array {
  const params = {
    denominator: options.eip1559Denominator ?? preset.eip1559Denominator,
    elasticity: options.eip1559Elasticity ?? preset.eip1559Elasticity,
    minBaseFee: options.minBaseFee ?? 0n,
  }
  const jovian = encodeExtraData(params, true)
  const holocene = encodeExtraData(params, false)
  return (timestamp) => (timestamp >= preset.jovianTime ? jovian : holocene)
}

export async function createChain(options: ChainOptions): Promise<Chain> {
  const logger = options.quiet ? silent : (options.logger ?? consoleLogger)
  const { chainId, gasLimit } = options
  // X Layer's parameters: the chain id's network, else the one named (a dev chain id keeps the network's rules)
  const preset = presetOfChain(BigInt(chainId)) ?? NETWORKS[options.network ?? 'mainnet']
  const baseFee = options.baseFee ?? preset.genesisBaseFee
  // --genesis: a plain Ethereum chain of a geth genesis (OP Stack rules only if the genesis says `optimism`)
  const geth = options.genesis !== undefined ? readGethGenesis(options.genesis) : undefined
  const opStack = geth === undefined || 'optimism' in geth.config
  // --fork-url: the upstream's chain id, checked before anything is built (a dead upstream fails here)
  // (fork mode's code, the follower's upstream client among it, is loaded only then)
  const forking = options.forkUrl !== undefined ? await import('./fork/upstream-fork.js') : undefined
  const point = forking && (await forking.reachFork({ url: options.forkUrl!, blockNumber: options.forkBlockNumber }))
  const common = geth
    ? gethGenesisCommon(geth)
    : createChainCommon({ chainId: point ? Number(point.chainId) : chainId, gasLimit, baseFee })
  const fork = point && (await forking!.UpstreamFork.open(point, common, options.evmTimeoutMs))
  const accounts = deriveDevAccounts(options.mnemonic, options.accounts)
  const gaslessTargets = options.gaslessTargets ?? []
  const opened = await openChainState(options, {
    common,
    geth,
    accounts,
    baseFee,
    genesis: { extraData: preset.genesisExtraData, gasless: { chainId: BigInt(chainId), targets: gaslessTargets } },
    logger,
    fork,
  })
  const { stateManager, store, preimages, durable, pruner } = opened
  skipUnchangedWrites(liveTrie(stateManager))
  // the storage tries genesis opened were copied from the trie before: dropped (with the caches), so they are
  // opened again through it
  await stateManager.setStateRoot(await stateManager.getStateRoot())
  if (!fork) {
    patchStateStorage(stateManager)
    skipUnchangedStorage(stateManager)
  }
  const head = store.latest()
  // the chain's VM, pool and calls run under the head's fork
  if (geth) common.setHardforkBy({ blockNumber: head.number, timestamp: head.header.timestamp })
  const blockchain = new StoreBlockHashes(store, fork?.blockHashes)
  const vm = await createVM({ common, stateManager, blockchain })
  // the sequencer's transactions and deposits with their outermost frames on the interpreter
  if (options.evmInterpreter ?? interpreterByDefault()) patchBlockEvm(vm.evm as EVM)
  const events = new TypedEmitter<ChainEvents>((event, err) =>
    logger.warn(`a ${event} listener failed: ${(err as Error).stack ?? err}`),
  )
  const pool = new TxPool(
    common,
    {
      state: stateAt(vm, head.header.stateRoot),
      baseFee: head.header.baseFeePerGas !== undefined ? nextBaseFee(head.header) : 0n,
      gasLimit: head.header.gasLimit,
    },
    {
      maxPerSender: options.txpoolMaxPerSender,
      maxTotal: options.txpoolMaxTotal,
      onAccepted: (tx) => events.emit('pendingTransaction', tx),
      onDropped: (tx, reason) => events.emit('droppedTransaction', tx, reason),
      gasless:
        opStack && !geth
          ? { allowance: (record) => chain.gaslessAllowance(record), whitelist: gaslessContractHex(BigInt(chainId)) }
          : undefined,
    },
  )
  const { blockTimeMs, flashblockIntervalMs, opFees, l1Settings } = options
  const { ForkMode } = fork ? await import('./fork/fork-mode.js') : {}
  const chain = new Chain({
    common,
    vm,
    accounts,
    pool,
    store,
    vms: new VmPool(vm),
    options: {
      blockTimeMs,
      flashblockIntervalMs,
      opFees: opStack && opFees,
      l1Settings,
      opStack,
      extraData: opStack && !geth ? blockExtraData(options, preset) : undefined,
      gaslessBudget: opStack && !geth ? (options.gaslessBlockGasLimit ?? GASLESS_BLOCK_GAS_LIMIT) : undefined,
      dumpState: options.dumpState,
      evmTimeoutMs: options.evmTimeoutMs,
      liveStateCachedEntries: options.liveStateCachedEntries,
      preimages,
      pruner,
      fork: fork && ForkMode && new ForkMode(fork, { common, accounts, balance: options.balance, l1Settings }),
    },
    events,
    logger,
    persistence: durable?.persistence,
  })
  if (pruner) events.on('block', (block) => pruner.sealed(block.number))
  if (durable) {
    const { sequencer } = chain
    await restoreInProgress(durable.persistence, store.height, { common, sequencer, pool, events, ...logger })
  }
  return chain
}
