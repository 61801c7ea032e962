/**
 * Map keys made of bytes, each one flat string. hexKey's are also names (a node store's, a state dump's, and
 * the wire's hex data); byteKey's are for lookups only.
 *
 * hexKey: bytes as hex, one flat string. @ethereumjs's bytesToHex builds its result by concatenation: a
 * rope of ~30 cons strings, which a Map keeps as it is (about 1 KB per 64-byte key, measured in a heap snapshot
 * of an aged instance, bench/heap-diff.ts). Buffer's hex encoding makes one flat string (~150 bytes), faster.
 * Unprefixed lowercase hex; format/hex.ts's data() writes the wire's 0x-prefixed hex with it too.
 */
const scratch = Buffer.allocUnsafeSlow(128)

/** The hex of `a` followed by `b`'s (`b` optional). */
export function hexKey(a: Uint8Array, b?: Uint8Array): string {
  return joined(a, b, 'hex')
}

/** `a` then `b` in `encoding`, through one buffer: no array of the bytes is made on the way. */
function joined(a: Uint8Array, b: Uint8Array | undefined, encoding: 'hex' | 'latin1'): string {
  const length = a.length + (b?.length ?? 0)
  const into = length <= scratch.length ? scratch : Buffer.allocUnsafe(length)
  into.set(a, 0)
  if (b) into.set(b, a.length)
  return into.toString(encoding, 0, length)
}

/**
 * Bytes as one character each (`a` then `b`): a flat string a Map hashes at once, half hex's length. Hex from
 * bytesToHex is built a byte at a time, and the Map then flattens it before hashing: 3x the cost of a lookup
 * keyed by these. For keys of fixed-width fields (hashes, addresses, slots); not for text anyone reads.
 */
export function byteKey(a: Uint8Array, b?: Uint8Array): string {
  // an address, the commonest key, as one call of fixed arity (quicker still); the rest as latin1, a character a
  // byte (apply over a typed array copied it to a list first: ~270 bytes for a hash's key, more than the key)
  if (!b && a.length === 20) return addressBytesKey(a)
  return joined(a, b, 'latin1')
}

function addressBytesKey(a: Uint8Array): string {
  return String.fromCharCode(
    a[0]!,
    a[1]!,
    a[2]!,
    a[3]!,
    a[4]!,
    a[5]!,
    a[6]!,
    a[7]!,
    a[8]!,
    a[9]!,
    a[10]!,
    a[11]!,
    a[12]!,
    a[13]!,
    a[14]!,
    a[15]!,
    a[16]!,
    a[17]!,
    a[18]!,
    a[19]!,
  )
}

/**
 * A number naming a keccak hash in a Map (its first 31 bits: a small integer, which V8 hashes and compares
 * without making a string). Two hashes may share one: a cache keyed by it keeps the hash and checks it.
 */
export function hashId(hash: Uint8Array, at = 0): number {
  return ((hash[at]! << 23) | (hash[at + 1]! << 15) | (hash[at + 2]! << 7) | (hash[at + 3]! >> 1)) >>> 0
}

/** FNV-1a's offset basis, where bytesMix starts. */
export const FNV_START = 0x811c9dc5

/** FNV-1a of `bytes` from the hash so far, `h` (FNV_START to begin with): every byte counts. */
export function bytesMix(h: number, bytes: Uint8Array): number {
  for (let i = 0; i < bytes.length; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193)
  return h
}

/**
 * A number naming bytes whose parts may be alike (addresses one generator counts up, whose first bytes all
 * match): 31 bits of FNV-1a, where hashId reads four bytes of a hash. Two byte strings may share one.
 */
export function bytesId(bytes: Uint8Array): number {
  return bytesMix(FNV_START, bytes) >>> 1
}

/*
 * Keys of 256-bit words held as eight 32-bit limbs, least significant first (the EVM interpreter's stack,
 * src/evm/interpreter/word.ts), made without going through bytes.
 */

const TWO32 = 0x1_0000_0000

/**
 * A word as a key: the number itself below 2^53 (slots that are counters or small indexes: a Map hashes a
 * number without making a string), else its sixteen 16-bit halves as one string. A number and a string never
 * meet, so each word has one key.
 */
export function wordKey(limbs: Uint32Array, at: number): number | string {
  const high = limbs[at + 2]! | limbs[at + 3]! | limbs[at + 4]! | limbs[at + 5]! | limbs[at + 6]! | limbs[at + 7]!
  if (high === 0 && limbs[at + 1]! < 0x200000) return limbs[at + 1]! * TWO32 + limbs[at]!
  return String.fromCharCode(
    limbs[at]! & 0xffff,
    limbs[at]! >>> 16,
    limbs[at + 1]! & 0xffff,
    limbs[at + 1]! >>> 16,
    limbs[at + 2]! & 0xffff,
    limbs[at + 2]! >>> 16,
    limbs[at + 3]! & 0xffff,
    limbs[at + 3]! >>> 16,
    limbs[at + 4]! & 0xffff,
    limbs[at + 4]! >>> 16,
    limbs[at + 5]! & 0xffff,
    limbs[at + 5]! >>> 16,
    limbs[at + 6]! & 0xffff,
    limbs[at + 6]! >>> 16,
    limbs[at + 7]! & 0xffff,
    limbs[at + 7]! >>> 16,
  )
}

/** byteKey of the word's low 20 bytes (an address), the same string byteKey makes of the address's bytes. */
export function addressKey(limbs: Uint32Array, at: number): string {
  const a = limbs[at + 4]!
  const b = limbs[at + 3]!
  const c = limbs[at + 2]!
  const d = limbs[at + 1]!
  const e = limbs[at]!
  return String.fromCharCode(
    a >>> 24,
    (a >>> 16) & 0xff,
    (a >>> 8) & 0xff,
    a & 0xff,
    b >>> 24,
    (b >>> 16) & 0xff,
    (b >>> 8) & 0xff,
    b & 0xff,
    c >>> 24,
    (c >>> 16) & 0xff,
    (c >>> 8) & 0xff,
    c & 0xff,
    d >>> 24,
    (d >>> 16) & 0xff,
    (d >>> 8) & 0xff,
    d & 0xff,
    e >>> 24,
    (e >>> 16) & 0xff,
    (e >>> 8) & 0xff,
    e & 0xff,
  )
}

/**
 * `key` as one flat string, for a key a long-lived Map keeps that someone else built: @ethereumjs's trie hands
 * its node store bytesToHex's ropes (~900 bytes and ~30 heap objects per 64-character key, against ~120
 * flat: measured with 200 000 keys). Reading a character flattens a rope in place; the collector then drops
 * the cons cells around it.
 */
export function flat(key: string): string {
  key.charCodeAt(0)
  return key
}
