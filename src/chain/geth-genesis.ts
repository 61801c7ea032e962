/**
 * `--genesis FILE`: a geth genesis.json as the chain's start. Any chain id, forks by block number and by
 * timestamp (pre-merge blocks are accepted without checking their proof of work: runBlock never checks a
 * seal), the blob schedule with its BPO forks, and the alloc (balance, nonce, code, storage).
 */
import type { Preimages } from './persist/preimages.js'
import { readFileSync } from 'node:fs'
import { createBlockHeader } from '@ethereumjs/block'
import { type Common, type GethGenesis, createCommonFromGethGenesis } from '@ethereumjs/common'
import type { MerklePatriciaTrie } from '@ethereumjs/mpt'
import { Caches, MerkleStateManager } from '@ethereumjs/statemanager'
import { type PrefixedHexString, hexToBytes, setLengthLeft } from '@ethereumjs/util'
import { ConfigError } from '../config.js'
import { assembleBlock } from '../domain/block-record.js'
import type { BlockRecord } from '../domain/types.js'
import { ecrecover, keccak256, kzg } from '../evm/crypto.js'
import { chainParams, rebuildParamsCache } from '../evm/patches/fields.js'

type GenesisAccount = { balance?: string; nonce?: string | number; code?: string; storage?: Record<string, string> }
export type GenesisFile = GethGenesis & { alloc: Record<string, GenesisAccount> }

/** Reads and parses FILE; a missing file or bad JSON is a ConfigError naming it. */
export function readGethGenesis(file: string): GenesisFile {
  let json: GenesisFile
  try {
    json = JSON.parse(readFileSync(file, 'utf8')) as GenesisFile
  } catch (err) {
    throw new ConfigError(`--genesis ${file}: ${(err as Error).message}`)
  }
  if (typeof json?.config?.chainId !== 'number' || typeof json.alloc !== 'object')
    throw new ConfigError(`--genesis ${file}: not a geth genesis (config.chainId and alloc are required)`)
  return json
}

/**
 * The chain's Common, set to the genesis block's fork. @ethereumjs/common 10.1.3 writes a BPO fork's
 * blobSchedule entry as targetBlobGasPerBlock/maxBlobGasPerBlock, but reads BPO forks' `target`/`max`
 * (getBlobGasSchedule): a genesis's own BPO numbers would be ignored. They are put under the read names too.
 */
export function gethGenesisCommon(genesis: GenesisFile): Common {
  const common = createCommonFromGethGenesis(genesis, {
    chain: `geth-genesis-${genesis.config.chainId}`,
    customCrypto: { keccak256, ecrecover, kzg },
  })
  const custom = chainParams(common).customHardforks
  const schedule = (genesis.config as { blobSchedule?: Record<string, { target: number; max: number }> }).blobSchedule
  for (const [fork, entry] of Object.entries(schedule ?? {})) {
    if (!/^bpo\d+$/.test(fork) || !custom?.[fork]) continue
    custom[fork].params = { ...custom[fork].params, target: entry.target, max: entry.max }
  }
  // the params cache was built from the unpatched entries
  rebuildParamsCache(common)
  common.setHardforkBy({ blockNumber: 0n, timestamp: BigInt(genesis.timestamp ?? 0) })
  return common
}

/** Genesis state (in `trie`) and the genesis block, whose hash a geth node of this genesis has too. */
export async function createGethGenesis(
  genesis: GenesisFile,
  common: Common,
  trie: MerklePatriciaTrie,
  preimages?: Preimages,
): Promise<{ stateManager: MerkleStateManager; genesis: BlockRecord }> {
  const stateManager = new MerkleStateManager({ common, caches: new Caches(), trie })
  // --dump-state lists accounts by address: the alloc's addresses are recorded like every later write's
  preimages?.watch(stateManager)
  const alloc: Record<string, [PrefixedHexString, PrefixedHexString, [Uint8Array, Uint8Array][], PrefixedHexString]> =
    {}
  for (const [address, account] of Object.entries(genesis.alloc)) {
    const storage = Object.entries(account.storage ?? {}).map(
      ([slot, value]) =>
        [setLengthLeft(hexToBytes(slot as PrefixedHexString), 32), hexToBytes(value as PrefixedHexString)] as [
          Uint8Array,
          Uint8Array,
        ],
    )
    alloc[address.startsWith('0x') ? address : `0x${address}`] = [
      hex(account.balance),
      (account.code ?? '0x') as PrefixedHexString,
      storage,
      hex(account.nonce),
    ]
  }
  await stateManager.generateCanonicalGenesis(alloc as never)
  const g = genesis as unknown as Record<string, string | undefined>
  const header = createBlockHeader(
    {
      number: 0n,
      parentHash: g.parentHash as PrefixedHexString | undefined,
      coinbase: g.coinbase as PrefixedHexString | undefined,
      difficulty: big(g.difficulty),
      gasLimit: big(g.gasLimit),
      nonce: g.nonce !== undefined ? setLengthLeft(hexToBytes(hex(g.nonce)), 8) : undefined,
      mixHash: g.mixHash as PrefixedHexString | undefined,
      extraData: (g.extraData ?? '0x') as PrefixedHexString,
      timestamp: big(g.timestamp) ?? 0n,
      baseFeePerGas: big(g.baseFeePerGas),
      excessBlobGas: big(g.excessBlobGas),
      blobGasUsed: big(g.blobGasUsed),
      stateRoot: await stateManager.getStateRoot(),
    },
    { common, setHardfork: true },
  )
  return { stateManager, genesis: assembleBlock(header, header.hash(), [], []) }
}

function big(value: string | number | undefined): bigint | undefined {
  return value === undefined || value === null || value === '' ? undefined : BigInt(value)
}

/** geth writes numbers as hex strings, decimal strings or JSON numbers. */
function hex(value: string | number | undefined): PrefixedHexString {
  if (value === undefined || value === null || value === '') return '0x0'
  const n = BigInt(value)
  return `0x${n.toString(16)}`
}
