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

const EXPECTED: Record<string, Expected> = {
  'stExtCodeHash/dynamicAccountOverwriteEmpty_Paris': {
    paths: ['reexec'],
    reason:
      "upstream-backed state cannot see an account's storage root (JSON-RPC reads balance, nonce, code and slots), " +
      'so a CREATE2 onto an account with storage but no code or nonce is not seen to collide (EIP-7610); ' +
      'runTx and the eth_call paths, on a trie, see it',
  },
}

export function expectedFailure(c: Case, path: PathName): string | undefined {
  for (const key of [c.id, `${c.group}/${c.name}`, c.group]) {
    const entry = EXPECTED[key]
    if (entry?.paths.includes(path)) return entry.reason
  }
  return undefined
}
