/**
 * Map keys made of bytes, each one flat string. hexKey's are also names (a node store's, a state dump's);
 * byteKey's are for lookups only.
 *
 * hexKey: bytes as hex, one flat string. @ethereumjs's bytesToHex builds its result by concatenation: a
 * rope of ~30 cons strings, which a Map keeps as it is (about 1 KB per 64-byte key, measured in a heap snapshot
 * of an aged instance, bench/heap-diff.ts). Buffer's hex encoding makes one flat string (~150 bytes), faster.
 * Unprefixed lowercase hex: a key, never shown to a client.
 */
const scratch = Buffer.allocUnsafeSlow(128)

/** The hex of `a` followed by `b`'s (`b` optional). */
export function hexKey(a: Uint8Array, b?: Uint8Array): string {
  const length = a.length + (b?.length ?? 0)
  const into = length <= scratch.length ? scratch : Buffer.allocUnsafe(length)
  into.set(a, 0)
  if (b) into.set(b, a.length)
  return into.toString('hex', 0, length)
}

/**
 * Bytes as one character each (`a` then `b`): a flat string a Map hashes at once, half hex's length. Hex from
 * bytesToHex is built a byte at a time, and the Map then flattens it before hashing: 3x the cost of a lookup
 * keyed by these. For keys of fixed-width fields (hashes, addresses, slots); not for text anyone reads.
 */
export function byteKey(a: Uint8Array, b?: Uint8Array): string {
  if (!b) return String.fromCharCode.apply(null, a as unknown as number[])
  const joined = new Uint8Array(a.length + b.length)
  joined.set(a, 0)
  joined.set(b, a.length)
  return String.fromCharCode.apply(null, joined as unknown as number[])
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
