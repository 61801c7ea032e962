/**
 * Genesis of the dev chain: every dev account funded, the OP Stack predeploys, Prague from block 0, the configured gas limit and
 * a 1 gwei base fee. Returns the state manager holding genesis state (with caches: without them
 * execution is 7x slower, evm-engine.md section 7) and the genesis block record.
 */
import { createBlockHeader } from '@ethereumjs/block'
import type { Common } from '@ethereumjs/common'
import type { MerklePatriciaTrie } from '@ethereumjs/mpt'
import { Caches, MerkleStateManager } from '@ethereumjs/statemanager'
import { bytesToHex } from '@ethereumjs/util'
import { assembleBlock } from '../domain/block-record.js'
import { adoptCommon } from '../evm/chain-common.js'
import { type L1Settings, nextL1Info } from '../opstack/l1-origin.js'
import { type GaslessGenesis, installPredeploys, predeployAlloc } from '../opstack/predeploys.js'
import type { BlockRecord, DevAccount } from '../domain/types.js'
import type { Preimages } from './persist/preimages.js'
import { applyState, type LoadedAccount } from './persist/state-load.js'

export interface GenesisOptions {
  common: Common
  gasLimit: bigint
  baseFee: bigint
  accounts: readonly DevAccount[]
  balance: bigint
  /** Seconds; anvil starts its chain at the current time. */
  timestamp: bigint
  /** The simulated L1's fee settings L1Block starts with (default DEFAULT_L1_SETTINGS). */
  l1Settings?: L1Settings
  /** The genesis header's extraData (X Layer's: Holocene's EIP-1559 parameters). */
  extraData?: Uint8Array
  /** The gasless whitelist predeploy and its first targets. */
  gasless?: GaslessGenesis
  /** The trie to build genesis state in: a data directory's, or memoryTrie's. */
  trie: MerklePatriciaTrie
  /** Records the trie keys' preimages from the first write on (for --dump-state). */
  preimages?: Preimages
  /** --load-state: accounts written over the dev accounts and predeploys. */
  state?: readonly LoadedAccount[]
}

export async function createGenesis(
  options: GenesisOptions,
): Promise<{ stateManager: MerkleStateManager; genesis: BlockRecord }> {
  const { common } = options
  const stateManager = new MerkleStateManager({ common, caches: new Caches(), trie: options.trie })
  options.preimages?.watch(stateManager)
  const alloc: Record<string, string> = {}
  for (const account of options.accounts) alloc[bytesToHex(account.address)] = `0x${options.balance.toString(16)}`
  await stateManager.generateCanonicalGenesis(alloc)
  // OP Stack predeploys (L1Block with the genesis L1 info, GasPriceOracle, fee vaults paying the first account)
  await installPredeploys(
    stateManager,
    predeployAlloc(
      nextL1Info(options.timestamp, undefined, options.l1Settings),
      options.accounts[0]?.address ?? new Uint8Array(20),
      options.gasless,
    ),
  )
  if (options.state) await applyState(stateManager, options.state)
  const header = adoptCommon(
    createBlockHeader(
      {
        number: 0n,
        gasLimit: options.gasLimit,
        baseFeePerGas: options.baseFee,
        extraData: options.extraData,
        timestamp: options.timestamp,
        stateRoot: await stateManager.getStateRoot(),
        difficulty: 0n,
        excessBlobGas: 0n,
        blobGasUsed: 0n,
      },
      { common, freeze: false },
    ),
    common,
  )
  return { stateManager, genesis: assembleBlock(header, header.hash(), [], []) }
}
