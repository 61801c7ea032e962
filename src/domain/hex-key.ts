/**
 * Map keys made of bytes, as one flat string. @ethereumjs's bytesToHex builds its result by concatenation: a
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
