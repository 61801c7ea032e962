import { readFileSync } from 'node:fs'
import { createCommonFromGethGenesis } from '@ethereumjs/common'
import { bytesToHex, hexToBytes } from '@ethereumjs/util'
import { expect, test } from 'vitest'
import { forkConfigs } from './fork-config.js'
import { createChainCommon } from '../evm/chain-common.js'

const fixtures = new URL('../../test/fixtures/rpc-compat/', import.meta.url)
/** The execution-apis test chain's genesis block hash and head (block 0x36, past the last fork at 540 s). */
const GENESIS_HASH = hexToBytes('0x44fd89d504659cd58f48f4796b77a7e7012cf296a2409afa2f6c3cb99b5b3d99')

test('the execution-apis chain reports the fork geth reports: Osaka with BPO2, fork hash 0xe272ecbe', () => {
  const genesis = JSON.parse(readFileSync(new URL('genesis.json', fixtures), 'utf8'))
  const common = createCommonFromGethGenesis(genesis, { chain: 'rpc-compat' })
  const recorded = readFileSync(new URL('eth_config/get-config.io', fixtures), 'utf8')
  const expected = JSON.parse(
    recorded
      .split('\n')
      .find((line) => line.startsWith('<< '))!
      .slice(3),
  ).result.current
  const { current, next, last } = forkConfigs(common, GENESIS_HASH, 0x36n, 600n)
  expect(next).toBeUndefined()
  expect(last).toBeUndefined()
  expect(current.activationTime).toBe(BigInt(expected.activationTime))
  expect(bytesToHex(current.forkId)).toBe(expected.forkId)
  expect(`0x${current.chainId.toString(16)}`).toBe(expected.chainId)
  const names = (map: Map<string, Uint8Array>) => Object.fromEntries([...map].map(([k, v]) => [k, bytesToHex(v)]))
  expect(names(current.precompiles)).toEqual(expected.precompiles)
  expect(names(current.systemContracts)).toEqual(expected.systemContracts)
})

test('before a scheduled fork, next and last name it and current is the fork in force', () => {
  const genesis = JSON.parse(readFileSync(new URL('genesis.json', fixtures), 'utf8'))
  const common = createCommonFromGethGenesis(genesis, { chain: 'rpc-compat' })
  const { current, next, last } = forkConfigs(common, GENESIS_HASH, 40n, 400n)
  expect(current.activationTime).toBe(390n)
  expect(current.blobSchedule).toBeUndefined()
  expect(current.systemContracts.size).toBe(0)
  expect(next?.activationTime).toBe(420n)
  expect(next?.systemContracts.has('BEACON_ROOTS_ADDRESS')).toBe(true)
  expect(last?.activationTime).toBe(540n)
  expect(last?.precompiles.has('P256VERIFY')).toBe(true)
})

test('the dev chain runs Prague from genesis with nothing scheduled and no beacon deposit contract', () => {
  const common = createChainCommon({ chainId: 196, gasLimit: 30_000_000n, baseFee: 1_000_000_000n })
  const { current, next } = forkConfigs(common, new Uint8Array(32), 5n, 1_700_000_000n)
  expect(next).toBeUndefined()
  expect(current.activationTime).toBe(0n)
  expect(current.blobSchedule).toEqual({ target: 6n, max: 9n, baseFeeUpdateFraction: 5_007_716n })
  expect(bytesToHex(current.systemContracts.get('DEPOSIT_CONTRACT_ADDRESS')!)).toBe(bytesToHex(new Uint8Array(20)))
  expect(current.precompiles.has('P256VERIFY')).toBe(false)
})

test('the fork hash is always four bytes, also when its CRC32 starts with a zero byte', () => {
  const genesis = JSON.parse(readFileSync(new URL('genesis.json', fixtures), 'utf8'))
  const common = createCommonFromGethGenesis(genesis, { chain: 'rpc-compat' })
  const hardfork = common.getHardforkBy({ blockNumber: 0x36n, timestamp: 600n })
  // a genesis hash whose fork hash is below 2^24: one in 256 (a chain's genesis time decides it)
  const genesisHash = GENESIS_HASH.slice()
  while (common.forkHash(hardfork, genesisHash).length === 10) genesisHash[31]! += 1
  const { current } = forkConfigs(common, genesisHash, 0x36n, 600n)
  expect(current.forkId.length).toBe(4)
  expect(bytesToHex(current.forkId)).toBe(`0x${common.forkHash(hardfork, genesisHash).slice(2).padStart(8, '0')}`)
})
