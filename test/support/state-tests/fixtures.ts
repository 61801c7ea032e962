/**
 * The GeneralStateTests subsets under test/evm-state/fixtures (one brotli-compressed JSON file per group,
 * written by scripts/state-test-fixtures.ts): each test's pre-state, block environment, transaction matrix
 * and expected post-state root and logs hash per case, at its set's fork. Two sets: ethereum/tests' own fill
 * at Cancun (groups `stX`), and execution-spec-tests' fill of the same tests at Prague, the chain's rules
 * (groups `prague/stX`). fixtures/README.md and fixtures/prague/README.md name the sources.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { brotliDecompressSync } from 'node:zlib'

/** The forks of the fixture sets: Cancun (ethereum/tests 4c87ebb, October 2024, its newest), Prague. */
export const FORKS = ['Cancun', 'Prague'] as const
export type Fork = (typeof FORKS)[number]

const FIXTURES = new URL('../../evm-state/fixtures/', import.meta.url)

/** Where a fork's set lives: Cancun's at the top, later forks' in a directory named for the fork. */
export function fixtureDir(fork: Fork): URL {
  return fork === 'Cancun' ? FIXTURES : new URL(`${fork.toLowerCase()}/`, FIXTURES)
}

/** The fork of a group: `prague/stX` is Prague's set, a bare `stX` Cancun's. */
function splitGroup(group: string): { fork: Fork; name: string } {
  const slash = group.indexOf('/')
  if (slash < 0) return { fork: 'Cancun', name: group }
  const fork = FORKS.find((f) => f.toLowerCase() === group.slice(0, slash))
  if (!fork) throw new Error(`no fixture set for the group ${group}`)
  return { fork, name: group.slice(slash + 1) }
}

type Hex = string

export interface PreAccount {
  balance: Hex
  code: Hex
  nonce: Hex
  storage: Record<Hex, Hex>
}

export interface StateTestCase {
  indexes: { data: number; gas: number; value: number }
  /** The post-state root. */
  hash: Hex
  /** keccak256 of the RLP of the transaction's logs. */
  logs: Hex
  /** The transaction is invalid: the state stays as it was. */
  expectException?: string
}

export interface StateTest {
  env: {
    currentCoinbase: Hex
    currentGasLimit: Hex
    currentNumber: Hex
    currentTimestamp: Hex
    currentBaseFee?: Hex
    currentRandom?: Hex
    currentDifficulty?: Hex
    currentExcessBlobGas?: Hex
  }
  pre: Record<Hex, PreAccount>
  transaction: {
    data: Hex[]
    gasLimit: Hex[]
    value: Hex[]
    nonce: Hex
    secretKey: Hex
    sender?: Hex
    /** Empty: a contract creation. */
    to: Hex
    gasPrice?: Hex
    maxFeePerGas?: Hex
    maxPriorityFeePerGas?: Hex
    accessLists?: ({ address: Hex; storageKeys: Hex[] }[] | null)[]
    maxFeePerBlobGas?: Hex
    blobVersionedHashes?: Hex[]
  }
  post: StateTestCase[]
}

/** One case: a test with one choice of data, gas limit and value. */
export interface Case {
  group: string
  /** The rules the case runs under: its fixture set's fork. */
  fork: Fork
  name: string
  test: StateTest
  expected: StateTestCase
  /** `group/name` and the case's indexes, as failures are reported. */
  id: string
}

/** Every group of every set (Cancun's, then `prague/...`), or of `only`'s set. */
export function fixtureGroups(only?: Fork): string[] {
  return FORKS.filter((fork) => only === undefined || fork === only).flatMap((fork) =>
    readdirSync(fixtureDir(fork))
      .filter((f) => f.endsWith('.json.br'))
      .map((f) => f.slice(0, -'.json.br'.length))
      .sort()
      .map((g) => (fork === 'Cancun' ? g : `${fork.toLowerCase()}/${g}`)),
  )
}

export function loadGroup(group: string): Case[] {
  const { fork, name: file } = splitGroup(group)
  const tests = JSON.parse(
    brotliDecompressSync(readFileSync(new URL(`${file}.json.br`, fixtureDir(fork)))).toString(),
  ) as Record<string, StateTest>
  return Object.entries(tests).flatMap(([name, test]) =>
    test.post.map((expected) => {
      const { data, gas, value } = expected.indexes
      const id = `${group}/${name}${test.post.length > 1 ? ` d${data}g${gas}v${value}` : ''}`
      return { group, fork, name, test, expected, id }
    }),
  )
}
