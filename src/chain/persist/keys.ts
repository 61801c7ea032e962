/**
 * The data directory's key space, one prefix byte per kind, numbers big-endian so LevelDB's byte order
 * is block order: m meta, b sealed block by number, s the senders of a block's transactions by block number
 * (20 bytes each, in order; a block written before there were any has its senders recovered), h block number
 * by hash, t transaction position (block number, index) by hash, n trie node by hash, k preimage of a hashed trie key, j flashblock
 * journal by (block, index), p pool journal by transaction hash.
 */
const PREFIX = {
  meta: 0x6d,
  block: 0x62,
  senders: 0x73,
  hash: 0x68,
  tx: 0x74,
  node: 0x6e,
  preimage: 0x6b,
  journal: 0x6a,
  pool: 0x70,
} as const

function withPrefix(prefix: number, body: Uint8Array): Uint8Array {
  const key = new Uint8Array(1 + body.length)
  key[0] = prefix
  key.set(body, 1)
  return key
}

export function u64(n: bigint): Uint8Array {
  const out = new Uint8Array(8)
  new DataView(out.buffer).setBigUint64(0, n)
  return out
}

export const META_KEY = withPrefix(PREFIX.meta, new TextEncoder().encode('format'))

export const blockKey = (number: bigint) => withPrefix(PREFIX.block, u64(number))
export const sendersKey = (number: bigint) => withPrefix(PREFIX.senders, u64(number))
export const hashKey = (hash: Uint8Array) => withPrefix(PREFIX.hash, hash)
export const txKey = (hash: Uint8Array) => withPrefix(PREFIX.tx, hash)
export const nodeKey = (hash: Uint8Array) => withPrefix(PREFIX.node, hash)
export const preimageKey = (hash: Uint8Array) => withPrefix(PREFIX.preimage, hash)
export const poolKey = (hash: Uint8Array) => withPrefix(PREFIX.pool, hash)

/** A transaction's position: block number (8 bytes) and index (4 bytes), big-endian. */
export function encodePosition(number: bigint, index: number): Uint8Array {
  const out = new Uint8Array(12)
  const view = new DataView(out.buffer)
  view.setBigUint64(0, number)
  view.setUint32(8, index)
  return out
}

export function decodePosition(bytes: Uint8Array): { number: bigint; index: number } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  return { number: view.getBigUint64(0), index: bytes.byteLength >= 12 ? view.getUint32(8) : 0 }
}

export const journalKey = (number: bigint, index: number) => withPrefix(PREFIX.journal, encodePosition(number, index))

/** Key bounds covering every key of one kind (for iterators and range deletes). */
export function range(kind: keyof typeof PREFIX): { gte: Uint8Array; lt: Uint8Array } {
  return { gte: Uint8Array.of(PREFIX[kind]), lt: Uint8Array.of(PREFIX[kind] + 1) }
}

export function journalRange(number: bigint): { gte: Uint8Array; lt: Uint8Array } {
  return { gte: journalKey(number, 0), lt: journalKey(number + 1n, 0) }
}
