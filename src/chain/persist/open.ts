/**
 * The chain's starting point in a data directory: a fresh directory gets genesis (written before
 * anything else happens), a used one gives back its sealed blocks and the state trie at the newest.
 */
import type { Common } from '@ethereumjs/common'
import { MerklePatriciaTrie } from '@ethereumjs/mpt'
import { Caches, MerkleStateManager } from '@ethereumjs/statemanager'
import { ValueEncoding } from '@ethereumjs/util'
import type { BlockRecord } from '../../domain/types.js'
import { openDataDir } from './db.js'
import { Persistence } from './persistence.js'
import { LevelTrieDB } from './trie-db.js'

/** Trie nodes kept decoded in memory in front of LevelDB (an LRU; a node is ~100-500 bytes). */
const TRIE_NODE_CACHE = 50_000

export interface DurableStart {
  persistence: Persistence
  stateManager: MerkleStateManager
  /** Every sealed block from genesis, in order. */
  blocks: BlockRecord[]
}

export async function openDurableChain(
  dir: string,
  common: Common,
  makeGenesis: (trie: MerklePatriciaTrie) => Promise<{ stateManager: MerkleStateManager; genesis: BlockRecord }>,
): Promise<DurableStart> {
  const { db } = await openDataDir(dir, Number(common.chainId()))
  const trieDb = new LevelTrieDB(db)
  const persistence = new Persistence(db, trieDb)
  const trie = new MerklePatriciaTrie({
    useKeyHashing: true,
    common,
    db: trieDb,
    valueEncoding: ValueEncoding.Bytes,
    cacheSize: TRIE_NODE_CACHE,
  })
  try {
    const blocks = await persistence.blocks(common)
    if (blocks.length === 0) {
      // fresh, or stopped before genesis reached the disk: genesis is deterministic from the flags
      const { stateManager, genesis } = await makeGenesis(trie)
      await persistence.sealed(genesis)
      return { persistence, stateManager, blocks: [genesis] }
    }
    trie.root(blocks[blocks.length - 1].header.stateRoot)
    const stateManager = new MerkleStateManager({ common, trie, caches: new Caches() })
    return { persistence, stateManager, blocks }
  } catch (err) {
    await db.close()
    throw err
  }
}
