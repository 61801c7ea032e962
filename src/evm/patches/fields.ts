/**
 * The protected fields of @ethereumjs objects the service reads outside the call path, typed by the packages'
 * declarations: the live state trie under a MerkleStateManager (state-views.ts's node store and read views,
 * --dump-state), its checkpoint depth (flash-builder.ts checks a transaction left none open) and how much its
 * caches hold (flash-builder.ts empties them past a bound), a Common's
 * chain parameters (a geth genesis's BPO schedule, the deposit contract), and the readonly `common` of a
 * header or transaction (chain-common.ts shares one Common among the chain's records), and a header's hash function
 * and prototype (block-context.ts builds a call's header from a stored one's fields), and a Common's EIP params
 * (eth_simulateV1's Common has its own). installEvmPatches checks each is where these read it.
 */
import { BlockHeader } from '@ethereumjs/block'
import { Common, type ParamsDict } from '@ethereumjs/common'
import type { MerklePatriciaTrie } from '@ethereumjs/mpt'
import type { CodeCache, MerkleStateManager, StorageCache } from '@ethereumjs/statemanager'
import type { StateManagerInterface } from '@ethereumjs/common'
import type { MapDB } from '@ethereumjs/util'

/** The trie a MerkleStateManager reads and writes (the live one, checkpoint layer included). */
export function liveTrie(state: StateManagerInterface): MerklePatriciaTrie {
  return (state as MerkleStateManager)['_trie']
}

/** The map under a MapDB (the in-memory chain's trie node store), which trie-reader.ts reads without a promise. */
export function mapUnder<V extends string | Uint8Array>(db: MapDB<string, V>): Map<string, V> {
  return db['_database']
}

/** A MerkleStateManager's code cache, if it keeps one (fork mode replaces an empty code it cached). */
export function codeCache(state: MerkleStateManager): CodeCache | undefined {
  return state['_caches']?.code
}

/** A MerkleStateManager's storage cache, if it keeps one (storage-at-flush.ts puts its slots there only). */
export function storageCache(state: MerkleStateManager): StorageCache | undefined {
  return state['_caches']?.storage
}

/** Entries a MerkleStateManager's caches hold (accounts, slots, code). */
export function cachedEntries(state: StateManagerInterface): number {
  const caches = (state as MerkleStateManager)['_caches']
  return (caches?.account?.size() ?? 0) + (caches?.storage?.size() ?? 0) + (caches?.code?.size() ?? 0)
}

/** How many checkpoints of a MerkleStateManager are open. */
export function checkpointDepth(state: StateManagerInterface): number {
  return (state as MerkleStateManager)['_checkpointCount']
}

/**
 * Gives an unfrozen header or transaction another Common: `common` is a readonly field each constructor
 * fills with its own copy (chain-common.ts adoptCommon shares one instead).
 */
export function replaceCommon(object: object, common: Common): void {
  ;(object as { common: Common }).common = common
}

/** The chain configuration a Common was made from (its own copy, which its params cache is built from). */
export function chainParams(common: Common): Common['_chainParams'] {
  return common['_chainParams']
}

/**
 * A copy of `common` whose EIP params are its own: the shared ones with each of `merged` merged over them in
 * turn. Copies of a Common share its params object, which updateParams changes in place, so a merge into a
 * plain copy reaches every Common of the chain. The copy's own copies (every transaction's and header's)
 * share the result and skip the merge their constructors run, as chain-common.ts's callCommon copies do.
 */
export function commonWithOwnParams(common: Common, merged: ParamsDict[]): Common {
  const own = common.copy()
  own['_params'] = structuredClone(common['_params'])
  for (const params of merged) Common.prototype.updateParams.call(own, params)
  // an own property: Common.copy() carries it over to the copies
  own.updateParams = () => {}
  return own
}

/** Rebuilds a Common's params cache after its chain parameters were changed in place. */
export function rebuildParamsCache(common: Common): void {
  common['_buildParamsCache']()
}

/** The hash function a header hashes itself with (protected): a header built from its fields hashes with it too. */
export function headerHashFunction(header: BlockHeader): (message: Uint8Array) => Uint8Array {
  return header['keccakFunction']
}

/**
 * Makes the instances of `headerClass` BlockHeaders (hash, getBlobGasPrice, prevRandao... from its prototype)
 * without BlockHeader's constructor, which parses and validates every field: block-context.ts's call headers.
 */
export function extendsBlockHeader(headerClass: abstract new (...args: never[]) => object): void {
  Object.setPrototypeOf(headerClass.prototype, BlockHeader.prototype)
}
