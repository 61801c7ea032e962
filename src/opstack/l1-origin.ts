/**
 * The simulated L1 this dev chain derives from: an L1 block every 12 s, numbered and timed like Ethereum
 * mainnet since the Merge (block 15 537 394 at 1 663 224 179), with a hash derived from its number, and the
 * fee parameters the L1-info deposit carries. Each L2 block's origin is the newest L1 block at or before its
 * timestamp; the sequence number counts L2 blocks since the origin last changed.
 */
import { keccak_256 } from '@noble/hashes/sha3.js'
import { uint256Bytes } from './source-hash.js'

export const L1_BLOCK_TIME = 12n
const MERGE_BLOCK = 15_537_394n
const MERGE_TIME = 1_663_224_179n

/** What the chain operator sets (SystemConfig on a real chain) plus the L1 prices the L1-info deposit reports. */
export interface L1Settings {
  /** Wei. */
  l1BaseFee: bigint
  /** Wei. */
  blobBaseFee: bigint
  baseFeeScalar: bigint
  blobBaseFeeScalar: bigint
  operatorFeeScalar: bigint
  operatorFeeConstant: bigint
  daFootprintGasScalar: bigint
  /** 32 bytes: the batcher address, left-padded (SystemConfig.batcherHash). */
  batcherHash: Uint8Array
}

/**
 * Defaults, chosen like a real OP Stack mainnet block. The scalars are OP Mainnet's L1 attributes at block
 * 124 665 056 (baseFeeScalar 5227, blobBaseFeeScalar 1 014 213); L1 prices are a quiet Ethereum day (1 gwei
 * base fee, blob base fee at its 1 wei floor); operator fee off (0, 0) as on OP Mainnet, Base and X Layer
 * mainnet; a simulated batcher; daFootprintGasScalar 400, Jovian's default when the SystemConfig leaves it 0.
 */
export const DEFAULT_L1_SETTINGS: Readonly<L1Settings> = Object.freeze({
  l1BaseFee: 1_000_000_000n,
  blobBaseFee: 1n,
  baseFeeScalar: 5227n,
  blobBaseFeeScalar: 1_014_213n,
  operatorFeeScalar: 0n,
  operatorFeeConstant: 0n,
  daFootprintGasScalar: 400n,
  // a made-up batcher address (no real chain's), so nothing mistakes it for one
  batcherHash: uint256Bytes(0xba7c4e5000000000000000000000000000000001n),
})

export interface L1Origin {
  number: bigint
  timestamp: bigint
  hash: Uint8Array
}

/** Everything one L1-info deposit states: the origin, the L2 block's place in its epoch, and the settings. */
export interface L1Info extends L1Origin, L1Settings {
  sequenceNumber: bigint
}

/** The simulated L1 block with this number. */
function l1Block(number: bigint): L1Origin {
  const seed = new TextEncoder().encode('preconf-rpc simulated L1 block')
  const input = new Uint8Array(seed.length + 32)
  input.set(seed)
  input.set(uint256Bytes(number), seed.length)
  return { number, timestamp: MERGE_TIME + (number - MERGE_BLOCK) * L1_BLOCK_TIME, hash: keccak_256(input) }
}

/** The newest simulated L1 block at or before `l2Timestamp`. */
export function l1OriginAt(l2Timestamp: bigint): L1Origin {
  const behind = l2Timestamp < MERGE_TIME ? 0n : (l2Timestamp - MERGE_TIME) / L1_BLOCK_TIME
  return l1Block(MERGE_BLOCK + behind)
}

/**
 * The L1 info of an L2 block at `l2Timestamp` following a block whose info was `previous` (none for the
 * first block after genesis): the same origin bumps the sequence number, a new origin restarts it at 0.
 */
export function nextL1Info(
  l2Timestamp: bigint,
  previous: Pick<L1Info, 'number' | 'sequenceNumber'> | undefined,
  settings: L1Settings = DEFAULT_L1_SETTINGS,
): L1Info {
  const origin = l1OriginAt(l2Timestamp)
  const sequenceNumber = previous && previous.number === origin.number ? previous.sequenceNumber + 1n : 0n
  // Jovian derivation: a SystemConfig scalar of 0 means the default
  const daFootprintGasScalar = settings.daFootprintGasScalar || DEFAULT_L1_SETTINGS.daFootprintGasScalar
  return { ...settings, ...origin, sequenceNumber, daFootprintGasScalar }
}
