/**
 * The chain's starting point in a data directory: a fresh directory gets genesis (written before
 * anything else happens), a used one gives back its genesis, its head and the state trie at the head.
 * Nothing else is read: history stays on disk (disk-history.ts), so a restart does not grow with it.
 */
import type { Common } from '@ethereumjs/common'
import { MerklePatriciaTrie } from '@ethereumjs/mpt'
import { Caches, MerkleStateManager } from '@ethereumjs/statemanager'
import { ValueEncoding } from '@ethereumjs/util'
import type { BlockRecord } from '../../domain/types.js'
import { openDataDir } from './db.js'
import { DiskHistory } from './disk-history.js'
import { Persistence } from './persistence.js'
import { Preimages } from './preimages.js'
import { type Pruner, SweepingPruner } from './prune.js'
import type { CanonicalStore } from '../store.js'
import { StateFileError } from './state-load.js'
import { LevelTrieDB } from './trie-db.js'

export interface DurableStart {
  persistence: Persistence
  stateManager: MerkleStateManager
  genesis: BlockRecord
  history: DiskHistory
  preimages: Preimages
  /** --history N: prunes state older than N blocks (prune.ts). */
  pruner(history: number, store: CanonicalStore, warn: (message: string) => void): Pruner
}

export async function openDurableChain(
  dir: string,
  common: Common,
  makeGenesis: (
    trie: MerklePatriciaTrie,
    preimages: Preimages,
  ) => Promise<{ stateManager: MerkleStateManager; genesis: BlockRecord }>,
  /** --load-state's file: only a fresh directory takes it (a chain's state is never replaced). */
  loadState?: string,
): Promise<DurableStart> {
  const { db } = await openDataDir(dir, Number(common.chainId()))
  const trieDb = new LevelTrieDB(db)
  const preimages = new Preimages(db)
  const persistence = new Persistence(db, trieDb, preimages)
  const trie = new MerklePatriciaTrie({
    useKeyHashing: true,
    common,
    db: trieDb,
    valueEncoding: ValueEncoding.Bytes,
    // no LRU of @ethereumjs's: the store keeps its nodes packed (node-cache.ts)
    cacheSize: 0,
  })
  const pruner = (history: number, store: CanonicalStore, warn: (message: string) => void) =>
    new SweepingPruner(trieDb.prunable(), trie, history, (n) => store.byNumber(n)?.header.stateRoot, warn)
  try {
    const head = await DiskHistory.readHead(db, common)
    if (head === undefined) {
      // fresh, or stopped before genesis reached the disk: genesis is deterministic from the flags
      const { stateManager, genesis } = await makeGenesis(trie, preimages)
      await persistence.sealed(genesis)
      return { persistence, stateManager, genesis, history: new DiskHistory(db, common, genesis), preimages, pruner }
    }
    if (loadState)
      throw new StateFileError(
        `--load-state needs a fresh chain, but --data-dir ${dir} already holds blocks 0..${head.number}`,
      )
    const genesis = DiskHistory.read(db, common, 0n)
    if (genesis === undefined) throw new Error(`the data directory has block ${head.number} but no genesis block`)
    trie.root(head.header.stateRoot)
    const stateManager = new MerkleStateManager({ common, trie, caches: new Caches() })
    preimages.watch(stateManager)
    return { persistence, stateManager, genesis, history: new DiskHistory(db, common, head), preimages, pruner }
  } catch (err) {
    await db.close()
    throw err
  }
}
