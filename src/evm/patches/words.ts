/**
 * 256-bit stack values to and from big-endian bytes through a DataView's 64-bit words, for the call path's
 * opcode handlers and gas (word-opcodes.ts, sync-gas.ts). @ethereumjs converts through hex strings and pads
 * by spreading arrays into new ones: several times the cost of the opcode around it.
 */

/** Conversions happen between awaits, never across one, so one scratch word serves every frame. */
const scratch = new Uint8Array(32)
const view = new DataView(scratch.buffer)

function scratchValue(): bigint {
  return (
    (view.getBigUint64(0) << 192n) |
    (view.getBigUint64(8) << 128n) |
    (view.getBigUint64(16) << 64n) |
    view.getBigUint64(24)
  )
}

/** Big-endian bytes of up to 32, left-padded, as a stack value (a word in memory, a digest, a storage value). */
export function stackValue(bytes: Uint8Array): bigint {
  scratch.fill(0)
  scratch.set(bytes, 32 - bytes.length)
  return scratchValue()
}

/** Up to 32 bytes right-padded with zeros, as a stack value (CALLDATALOAD near the calldata's end). */
export function rightPaddedValue(bytes: Uint8Array): bigint {
  scratch.fill(0)
  scratch.set(bytes)
  return scratchValue()
}

/**
 * A stack value as 32 bytes in the shared scratch word: for a reader that copies them before the next
 * conversion (memory.write). setBigUint64 keeps the low 64 bits of what it is given.
 */
export function scratchWord(value: bigint): Uint8Array {
  view.setBigUint64(0, value >> 192n)
  view.setBigUint64(8, value >> 128n)
  view.setBigUint64(16, value >> 64n)
  view.setBigUint64(24, value)
  return scratch
}

/** A stack value as 32 bytes of its own (a storage key the state may keep). */
export function wordBytes(value: bigint): Uint8Array {
  return scratchWord(value).slice()
}
