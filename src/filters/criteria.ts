/**
 * What a log filter asks for: emitters (any of) and topics by position (null = anything, a list = any of).
 * Matching is by lower-case hex keys; the bloom probe is precomputed once per filter so scanning
 * thousands of block headers costs a few byte tests each.
 */
import { keccak256 } from '../evm/crypto.js'
import { address as addressHex, data, parseData, type Hex } from '../format/hex.js'
import type { LogBody } from '../domain/types.js'

/** The 3 (byte index, mask) pairs one value sets in a 2048-bit bloom. */
type BloomBits = readonly [number, number, number, number, number, number]

export interface LogCriteria {
  /** lower-case hex addresses; null = any emitter */
  readonly addresses: ReadonlySet<string> | null
  /** per position: lower-case hex topics, any of which matches; null = wildcard */
  readonly topics: readonly (ReadonlySet<string> | null)[]
  /** per constrained dimension, the bloom probes of its alternatives (any one must be present) */
  readonly bloomProbes: readonly (readonly BloomBits[])[]
}

export type TopicFilter = readonly (Hex | null | readonly (Hex | null)[])[]

export function createCriteria(
  address: Hex | readonly Hex[] | null | undefined,
  topics: TopicFilter | null | undefined,
): LogCriteria {
  const addressList = address == null ? [] : typeof address === 'string' ? [address] : address
  // An empty address list means "any", as in geth.
  const addresses = addressList.length ? new Set(addressList.map((a) => a.toLowerCase())) : null
  const topicSets = (topics ?? []).map((position) => {
    if (position === null) return null
    const alternatives = typeof position === 'string' ? [position] : position
    // A null inside an OR list, or an empty list, matches anything at that position.
    if (alternatives.length === 0 || alternatives.some((t) => t === null)) return null
    return new Set((alternatives as Hex[]).map((t) => t.toLowerCase()))
  })
  const bloomProbes: BloomBits[][] = []
  if (addresses) bloomProbes.push([...addresses].map((a) => bloomBits(parseData(a))))
  for (const set of topicSets) if (set) bloomProbes.push([...set].map((t) => bloomBits(parseData(t))))
  return { addresses, topics: topicSets, bloomProbes }
}

/** Whether a log satisfies the criteria (exact test, after the bloom said "maybe"). */
export function matchesLog(criteria: LogCriteria, log: LogBody): boolean {
  if (criteria.addresses && !criteria.addresses.has(addressHex(log.address))) return false
  if (criteria.topics.length > log.topics.length) return false
  for (let i = 0; i < criteria.topics.length; i++) {
    const set = criteria.topics[i]
    if (set && !set.has(data(log.topics[i]!))) return false
  }
  return true
}

/** False when the bloom proves no log of the block can match; true means "scan the block". */
export function bloomMayMatch(criteria: LogCriteria, bloom: Uint8Array): boolean {
  for (const alternatives of criteria.bloomProbes) {
    if (!alternatives.some((bits) => inBloom(bloom, bits))) return false
  }
  return true
}

function inBloom(bloom: Uint8Array, b: BloomBits): boolean {
  return (bloom[b[0]]! & b[1]) !== 0 && (bloom[b[2]]! & b[3]) !== 0 && (bloom[b[4]]! & b[5]) !== 0
}

function bloomBits(value: Uint8Array): BloomBits {
  const h = keccak256(value)
  const out: number[] = []
  for (let i = 0; i < 6; i += 2) {
    const bit = ((h[i]! << 8) | h[i + 1]!) & 2047
    out.push(255 - (bit >> 3), 1 << (bit & 7))
  }
  return out as unknown as BloomBits
}
