/**
 * The ethereum/tests GeneralStateTests subset under test/evm-state/fixtures (one brotli-compressed JSON file
 * per group, written by scripts/state-test-fixtures.ts): each test's pre-state, block environment,
 * transaction matrix and expected post-state root and logs hash per case, at FORK.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { brotliDecompressSync } from 'node:zlib'

/** The newest fork the fixtures (ethereum/tests 4c87ebb, October 2024) are filled for. */
export const FORK = 'Cancun'

export const FIXTURE_DIR = new URL('../../evm-state/fixtures/', import.meta.url)

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
  name: string
  test: StateTest
  expected: StateTestCase
  /** `group/name` and the case's indexes, as failures are reported. */
  id: string
}

export function fixtureGroups(): string[] {
  return readdirSync(FIXTURE_DIR)
    .filter((f) => f.endsWith('.json.br'))
    .map((f) => f.slice(0, -'.json.br'.length))
    .sort()
}

export function loadGroup(group: string): Case[] {
  const tests = JSON.parse(
    brotliDecompressSync(readFileSync(new URL(`${group}.json.br`, FIXTURE_DIR))).toString(),
  ) as Record<string, StateTest>
  return Object.entries(tests).flatMap(([name, test]) =>
    test.post.map((expected) => {
      const { data, gas, value } = expected.indexes
      const id = `${group}/${name}${test.post.length > 1 ? ` d${data}g${gas}v${value}` : ''}`
      return { group, name, test, expected, id }
    }),
  )
}
