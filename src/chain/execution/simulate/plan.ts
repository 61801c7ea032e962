/**
 * The blocks eth_simulateV1 will build, before any runs: each gets its number and timestamp (the next
 * number and 12 s later unless given), numbers and timestamps must increase, and a gap between two
 * given numbers is filled with empty blocks, as geth's sanitizeChain.
 */
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
