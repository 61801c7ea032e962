/**
 * Failures the state tests expect, each with its reason: by case id (`group/test dNgNvN`), test
 * (`group/test`) or group, and the paths it fails on. Anything failing that is not here fails the suite.
 */
import type { Case } from './fixtures.js'
import type { PathName } from './paths.js'

interface Expected {
  paths: PathName[]
  reason: string
}

/** The cases that create onto an account with storage but no code or nonce (EIP-7610 collisions). */
const STORAGE_COLLISION: Expected = {
  paths: ['reexec'],
  reason:
    "upstream-backed state cannot see an account's storage root (JSON-RPC reads balance, nonce, code and slots), " +
    'so a creation onto an account with storage but no code or nonce is not seen to collide (EIP-7610); ' +
    'runTx and the eth_call paths, on a trie, see it. Rare on a live chain (EIP-7610 counts 28 on Ethereum mainnet)',
}

const EXPECTED: Record<string, Expected> = {
  'stExtCodeHash/dynamicAccountOverwriteEmpty_Paris': STORAGE_COLLISION,
  'stCreate2/create2collisionStorageParis': STORAGE_COLLISION,
  'stCreate2/RevertInCreateInInitCreate2Paris': STORAGE_COLLISION,
  'stSStoreTest/InitCollisionParis': STORAGE_COLLISION,
  'stRevertTest/RevertInCreateInInit_Paris': STORAGE_COLLISION,
}

export function expectedFailure(c: Case, path: PathName): string | undefined {
  for (const key of [c.id, `${c.group}/${c.name}`, c.group]) {
    const entry = EXPECTED[key]
    if (entry?.paths.includes(path)) return entry.reason
  }
  return undefined
}
