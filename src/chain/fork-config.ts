/**
 * EIP-7910 (eth_config): the rules of the fork in force at a time, and of the next and the last scheduled
 * fork, read from the chain's Common and its EVM's precompile table, so a chain loaded from any genesis
 * reports its own schedule.
 */
import { paramsBlock } from '@ethereumjs/block'
import type { Common } from '@ethereumjs/common'
import { getActivePrecompiles } from '@ethereumjs/evm'
import { hexToBytes, setLengthLeft } from '@ethereumjs/util'
import { chainParams } from '../evm/patches/fields.js'

export interface ForkConfig {
  /** Seconds; 0 for a fork active from genesis or scheduled by block number. */
  activationTime: bigint
  blobSchedule?: { target: bigint; max: bigint; baseFeeUpdateFraction: bigint }
  chainId: bigint
  /** EIP-2124 fork hash, 4 bytes. */
  forkId: Uint8Array
  /** EIP-7910 name → address, of the precompiles active. */
  precompiles: Map<string, Uint8Array>
  /** EIP-7910 name → address, of the system contracts the fork calls. */
  systemContracts: Map<string, Uint8Array>
}

export interface ForkConfigs {
  current: ForkConfig
  next?: ForkConfig
  last?: ForkConfig
}

/** The names EIP-7910 gives precompiles, by address. */
const PRECOMPILE_NAMES: Record<number, string> = {
  0x01: 'ECREC',
  0x02: 'SHA256',
  0x03: 'RIPEMD160',
  0x04: 'ID',
  0x05: 'MODEXP',
  0x06: 'BN254_ADD',
  0x07: 'BN254_MUL',
  0x08: 'BN254_PAIRING',
  0x09: 'BLAKE2F',
  0x0a: 'KZG_POINT_EVALUATION',
  0x0b: 'BLS12_G1ADD',
  0x0c: 'BLS12_G1MSM',
  0x0d: 'BLS12_G2ADD',
  0x0e: 'BLS12_G2MSM',
  0x0f: 'BLS12_PAIRING_CHECK',
  0x10: 'BLS12_MAP_FP_TO_G1',
  0x11: 'BLS12_MAP_FP2_TO_G2',
  0x100: 'P256VERIFY',
}

/** System contracts by the EIP that introduces them (addresses fixed by those EIPs). */
const SYSTEM_CONTRACTS: [eip: number, name: string, address: string][] = [
  [4788, 'BEACON_ROOTS_ADDRESS', '0x000f3df6d732807ef1319fb7b8bb8522d0beac02'],
  [7251, 'CONSOLIDATION_REQUEST_PREDEPLOY_ADDRESS', '0x0000bbddc7ce488642fb579f8b00f3a590007251'],
  [2935, 'HISTORY_STORAGE_ADDRESS', '0x0000f90827f1c53a10cb7a02335b175320002935'],
  [7002, 'WITHDRAWAL_REQUEST_PREDEPLOY_ADDRESS', '0x00000961ef480eb55e80d19ad83579a64c007002'],
]

/** A fork @ethereumjs does not know (an OP Stack one): its time, under the EVM rules of the Ethereum fork then. */
export interface ExtraFork {
  name: string
  time: bigint
}

/**
 * The forks in force at `timestamp` on the chain of `common` (whose genesis hash is given), and after. `extra`:
 * the chain's OP Stack forks, which count as forks of the schedule (reth's eth_config iterates every hardfork
 * of the chain spec, OP ones included): the current fork activated at the latest of them all.
 */
export function forkConfigs(
  common: Common,
  genesisHash: Uint8Array,
  number: bigint,
  timestamp: bigint,
  extra: readonly ExtraFork[] = [],
): ForkConfigs {
  const current = common.getHardforkBy({ blockNumber: number, timestamp })
  const timed = (h: { timestamp?: number | string | null }) => (h.timestamp == null ? undefined : BigInt(h.timestamp))
  const scheduled: { name: string; time: bigint }[] = [
    ...common.hardforks().flatMap((h) => {
      const time = timed(h)
      return time !== undefined && time > timestamp ? [{ name: h.name, time }] : []
    }),
    ...extra.filter((f) => f.time > timestamp).map((f) => ({ name: current, time: f.time })),
  ].sort((a, b) => (a.time < b.time ? -1 : a.time > b.time ? 1 : 0))
  const of = (name: string, time?: bigint) => {
    const config = configOf(common, genesisHash, name)
    return time === undefined ? config : { ...config, activationTime: time }
  }
  const extraSince = extra.reduce((latest, f) => (f.time <= timestamp && f.time > latest ? f.time : latest), 0n)
  const now = of(current)
  return {
    current: extraSince > now.activationTime ? { ...now, activationTime: extraSince } : now,
    next: scheduled.length > 0 ? of(scheduled[0]!.name, scheduled[0]!.time) : undefined,
    last: scheduled.length > 0 ? of(scheduled.at(-1)!.name, scheduled.at(-1)!.time) : undefined,
  }
}

function configOf(base: Common, genesisHash: Uint8Array, hardfork: string): ForkConfig {
  const common = base.copy()
  // the blob parameters are the block library's (the chain's records carry them merged already)
  common.updateParams(paramsBlock)
  common.setHardfork(hardfork)
  const precompiles = new Map<string, Uint8Array>()
  for (const address of getActivePrecompiles(common).keys()) {
    const name = PRECOMPILE_NAMES[Number.parseInt(address, 16)]
    if (name) precompiles.set(name, hexToBytes(`0x${address}`))
  }
  const systemContracts = new Map<string, Uint8Array>()
  if (common.isActivatedEIP(6110)) systemContracts.set('DEPOSIT_CONTRACT_ADDRESS', hexToBytes(depositContract(common)))
  for (const [eip, name, address] of SYSTEM_CONTRACTS)
    if (common.isActivatedEIP(eip)) systemContracts.set(name, hexToBytes(address as `0x${string}`))
  const blobs = common.isActivatedEIP(4844)
  const perBlob = blobs ? common.param('blobGasPerBlob') : 0n
  return {
    activationTime: common.hardforkTimestamp(hardfork) ?? 0n,
    blobSchedule: blobs
      ? {
          target: common.param('targetBlobGasPerBlock') / perBlob,
          max: common.param('maxBlobGasPerBlock') / perBlob,
          baseFeeUpdateFraction: common.param('blobGasPriceUpdateFraction'),
        }
      : undefined,
    chainId: common.chainId(),
    // EIP-2124's hash is 4 bytes; @ethereumjs writes the CRC32 through intToBytes, which drops leading zero bytes
    forkId: setLengthLeft(hexToBytes(common.forkHash(hardfork, genesisHash)), 4),
    precompiles: new Map([...precompiles].sort(([a], [b]) => (a < b ? -1 : 1))),
    systemContracts: new Map([...systemContracts].sort(([a], [b]) => (a < b ? -1 : 1))),
  }
}

/** The beacon deposit contract the chain's config names (geth: zero when it names none). */
function depositContract(common: Common): `0x${string}` {
  const config = chainParams(common)
  return (config.depositContractAddress ?? '0x0000000000000000000000000000000000000000').toLowerCase() as `0x${string}`
}
