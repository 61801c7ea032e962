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

/** None: every path passes every case (EIP-7610's storage collisions included since the follower asks eth_getProof). */
const EXPECTED: Record<string, Expected> = {}

export function expectedFailure(c: Case, path: PathName): string | undefined {
  for (const key of [c.id, `${c.group}/${c.name}`, c.group]) {
    const entry = EXPECTED[key]
    if (entry?.paths.includes(path)) return entry.reason
  }
  return undefined
}
