/**
 * The blocks eth_simulateV1 will build, before any runs: each gets its number and timestamp (the next
 * number and 12 s later unless given), numbers and timestamps must increase, and a gap between two
 * given numbers is filled with empty blocks, as geth's sanitizeChain. Then each block's header fields
 * before execution, from its overrides and its parent, as geth's makeHeaders and processBlock.
 */
import type { BlockHeader } from '@ethereumjs/block'
import type { Common } from '@ethereumjs/common'
import { Address } from '@ethereumjs/util'
import { nextBaseFee } from '../../../opstack/base-fee.js'
import { isOpStackChain } from '../../../opstack/op-chain.js'
import type { SimulateBlockSpec } from '../../../domain/simulate.js'
import {
  SimulateBlockNumberOrderError,
  SimulateBlockTimestampOrderError,
  SimulateClientLimitError,
} from '../../../errors.js'
import { MAX_SIMULATE_BLOCKS, SIMULATE_TIMESTAMP_STEP } from '../../../limits.js'

/** A block to build: its spec with `number` and `time` always set. */
export type PlannedBlock = SimulateBlockSpec & {
  blockOverrides: SimulateBlockSpec['blockOverrides'] & { number: bigint; time: bigint }
}

export function planBlocks(blocks: SimulateBlockSpec[], base: { number: bigint; timestamp: bigint }): PlannedBlock[] {
  const planned: PlannedBlock[] = []
  let number = base.number
  let time = base.timestamp
  for (const block of blocks) {
    const wanted = block.blockOverrides.number ?? number + 1n
    if (wanted <= number) throw new SimulateBlockNumberOrderError(wanted, number)
    if (wanted - base.number > BigInt(MAX_SIMULATE_BLOCKS)) throw new SimulateClientLimitError('too many blocks')
    for (let gap = number + 1n; gap < wanted; gap++) {
      time += SIMULATE_TIMESTAMP_STEP
      planned.push({ blockOverrides: { number: gap, time }, calls: [] })
    }
    number = wanted
    const given = block.blockOverrides.time
    if (given !== undefined && given <= time) throw new SimulateBlockTimestampOrderError(given, time)
    time = given ?? time + SIMULATE_TIMESTAMP_STEP
    planned.push({ ...block, blockOverrides: { ...block.blockOverrides, number, time } })
  }
  return planned
}

const ZERO32 = new Uint8Array(32)

/**
 * The header fields known before the calls run: base fee zero unless given (the parent's next base fee under
 * `validation`), excess blob gas from the parent, a zero beacon root unless given, difficulty zero after
 * the merge; the gas limit and fee recipient are the parent's unless given.
 */
export function simulatedHeader(
  common: Common,
  o: PlannedBlock['blockOverrides'],
  parent: { header: BlockHeader; hash: Uint8Array },
  validation: boolean,
) {
  const validatedBaseFee = validation && parent.header.baseFeePerGas !== undefined ? nextBaseFee(parent.header) : 0n
  return {
    parentHash: parent.hash,
    number: o.number,
    timestamp: o.time,
    gasLimit: o.gasLimit ?? parent.header.gasLimit,
    coinbase: o.feeRecipient ? new Address(o.feeRecipient) : parent.header.coinbase,
    difficulty: common.gteHardfork('paris') ? 0n : parent.header.difficulty,
    mixHash: o.prevRandao ?? ZERO32,
    // an OP block carries its EIP-1559 parameters; the next simulated block's base fee follows them
    extraData: isOpStackChain(common) ? parent.header.extraData : new Uint8Array(),
    ...(common.isActivatedEIP(1559) ? { baseFeePerGas: o.baseFeePerGas ?? validatedBaseFee } : {}),
    ...(common.isActivatedEIP(4844)
      ? {
          parentBeaconBlockRoot: o.beaconRoot ?? ZERO32,
          excessBlobGas: parent.header.excessBlobGas !== undefined ? parent.header.calcNextExcessBlobGas(common) : 0n,
        }
      : {}),
  }
}
