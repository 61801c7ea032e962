/**
 * The feed's sequence rules (flashblocks.md Part 1; base/base validation.rs, xlayer-reth cache/raw.rs), as one
 * pure decision shared by the pending store and the follower (which must decide before it re-executes).
 * Index 0 with a `base` starts a block; the next index of the same payload continues it; a copy of one
 * already applied is a duplicate and is ignored; anything else (a gap, a skipped index, another payload's
 * index > 0, a join in mid-block) breaks the sequence and drops pending until the next index 0.
 * A block at or below the canonical height is stale and ignored.
 */
import { keyOf } from '../domain/block-record.js'

/** Where a sequence stands: the payload being built and the newest index applied. */
export interface SequencePosition {
  readonly payloadId: Uint8Array
  readonly number: bigint
  readonly index: number
}

/** The parts of a flashblock the rules look at. */
export interface SequenceCandidate {
  readonly payloadId: Uint8Array
  readonly index: number
  readonly base?: { readonly blockNumber: bigint }
  readonly metadata: { readonly blockNumber: bigint }
}

export type SequenceVerdict =
  | { readonly kind: 'start' }
  | { readonly kind: 'next' }
  | { readonly kind: 'duplicate' }
  | { readonly kind: 'stale' }
  | { readonly kind: 'break'; readonly reason: string }

export function classifyFlashblock(
  at: SequencePosition | undefined,
  fb: SequenceCandidate,
  canonicalHeight: bigint,
): SequenceVerdict {
  const id = keyOf(fb.payloadId)
  const samePayload = at !== undefined && keyOf(at.payloadId) === id
  if (samePayload && fb.index <= at.index) return { kind: 'duplicate' }
  if (fb.metadata.blockNumber <= canonicalHeight) return { kind: 'stale' }
  if (fb.index === 0) {
    if (!fb.base) return { kind: 'break', reason: `flashblock index 0 of payload ${id} has no base` }
    if (fb.base.blockNumber !== fb.metadata.blockNumber) {
      return {
        kind: 'break',
        reason: `flashblock ${id}#0 has base for block ${fb.base.blockNumber} but metadata for ${fb.metadata.blockNumber}`,
      }
    }
    return { kind: 'start' }
  }
  if (!samePayload || fb.index !== at.index + 1) {
    const expected = at ? `${keyOf(at.payloadId)}#${at.index + 1}` : 'an index 0'
    return {
      kind: 'break',
      reason: `flashblock ${id}#${fb.index} out of sequence (expected ${expected}); pending block dropped`,
    }
  }
  if (fb.metadata.blockNumber !== at.number) {
    return {
      kind: 'break',
      reason: `flashblock ${id}#${fb.index} is for block ${fb.metadata.blockNumber}, not ${at.number}`,
    }
  }
  return { kind: 'next' }
}
