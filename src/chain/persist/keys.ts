/**
 * The data directory's key space, one prefix byte per kind, numbers big-endian so LevelDB's byte order
 * is block order: m meta, b sealed block by number, n trie node by hash, j flashblock journal by
 * (block, index), p pool journal by transaction hash.
 */
const PREFIX = { meta: 0x6d, block: 0x62, node: 0x6e, journal: 0x6a, pool: 0x70 } as const

function withPrefix(prefix: number, body: Uint8Array): Uint8Array {
  const key = new Uint8Array(1 + body.length)
  key[0] = prefix
  key.set(body, 1)
  return key
}

function u64(n: bigint): Uint8Array {
  const out = new Uint8Array(8)
  new DataView(out.buffer).setBigUint64(0, n)
  return out
}

export const META_KEY = withPrefix(PREFIX.meta, new TextEncoder().encode('format'))

export const blockKey = (number: bigint) => withPrefix(PREFIX.block, u64(number))
export const nodeKey = (hash: Uint8Array) => withPrefix(PREFIX.node, hash)
export const poolKey = (hash: Uint8Array) => withPrefix(PREFIX.pool, hash)

export function journalKey(number: bigint, index: number): Uint8Array {
  const body = new Uint8Array(12)
  const view = new DataView(body.buffer)
  view.setBigUint64(0, number)
  view.setUint32(8, index)
  return withPrefix(PREFIX.journal, body)
}

/** Key bounds covering every key of one kind (for iterators and range deletes). */
export function range(kind: keyof typeof PREFIX): { gte: Uint8Array; lt: Uint8Array } {
  return { gte: Uint8Array.of(PREFIX[kind]), lt: Uint8Array.of(PREFIX[kind] + 1) }
}

export function journalRange(number: bigint): { gte: Uint8Array; lt: Uint8Array } {
  return { gte: journalKey(number, 0), lt: journalKey(number + 1n, 0) }
}
