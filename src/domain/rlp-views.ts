/**
 * RLP read in place: items as views of the bytes they were read from, each checked once as @ethereumjs's
 * RLP.decode checks it. Beside @ethereumjs/rlp (looked at again for 10.1.3) because that package exports only
 * encode and decode, and decode copies every string item (safeSlice is input.slice) and makes a view of every
 * remainder, an object per item besides: an old block's read spent most of its bytes there (a 50-transfer
 * block, 0.75 of its 1 MB). Its walker (_decode) is not exported and no API gives an item's offsets. Readers:
 * the state trie's stored nodes (evm/trie-node.ts), the blocks of the history (chain/persist/codec.ts) and the
 * state snapshot's values (evm/flat-values.ts).
 */

/** An RLP item as views of the bytes it was read from; a list as an array of its items. */
export type Item = Uint8Array | Item[]

/** What a reader throws on bytes that are not RLP (its own error, naming what it read). */
export type Invalid = () => Error

/**
 * `bytes` as one RLP item, checked as RLP.decode checks it (nothing past the end, canonical lengths, no trailing
 * bytes), its strings views of `bytes`: copy bytes a reader must not keep alive (a slab, a pooled buffer) first.
 */
export function decodeViews(bytes: Uint8Array, invalid: Invalid): Item {
  if (checkedEnd(bytes, 0, bytes.length, invalid) !== bytes.length) throw invalid()
  return itemAt(bytes, 0, bytes.length, invalid)
}

/** The item at `at` (ending by `limit`) as views of `bytes`. */
export function itemAt(bytes: Uint8Array, at: number, limit: number, invalid: Invalid): Item {
  const end = itemEnd(bytes, at, invalid)
  if (end > limit) throw invalid()
  const from = at + headerLength(bytes, at)
  if (bytes[at]! < 0xc0) return bytes.subarray(from, end)
  const items: Item[] = []
  for (let i = from; i < end; i = itemEnd(bytes, i, invalid)) items.push(itemAt(bytes, i, end, invalid))
  return items
}

/** How many bytes the item at `at` spends saying what it is and how long. */
export function headerLength(bytes: Uint8Array, at: number): number {
  const first = bytes[at]!
  if (first < 0x80) return 0
  if (first <= 0xb7 || (first >= 0xc0 && first <= 0xf7)) return 1
  return 1 + (first < 0xc0 ? first - 0xb7 : first - 0xf7)
}

/**
 * Where the item at `at` ends, checking it (and a list's items, all the way down) as RLP.decode does: no
 * item past `limit`, a length in its shortest form (one byte below 0x80 is its own encoding, a long form
 * only past 55 bytes, no leading zero in a length).
 */
export function checkedEnd(bytes: Uint8Array, at: number, limit: number, invalid: Invalid): number {
  if (at >= limit) throw invalid()
  const first = bytes[at]!
  if (first < 0x80) return at + 1
  const list = first >= 0xc0
  let from = at + 1
  let length: number
  if (first <= 0xb7 || (list && first <= 0xf7)) {
    length = first - (list ? 0xc0 : 0x80)
    if (length === 1 && !list && from < limit && bytes[from]! < 0x80) throw invalid()
  } else {
    const lengthBytes = first - (list ? 0xf7 : 0xb7)
    if (from + lengthBytes > limit || bytes[from] === 0) throw invalid()
    length = 0
    for (let i = from; i < from + lengthBytes; i++) length = length * 256 + bytes[i]!
    if (length < 56) throw invalid()
    from += lengthBytes
  }
  const end = from + length
  if (end > limit) throw invalid()
  if (list) for (let i = from; i < end; ) i = checkedEnd(bytes, i, end, invalid)
  return end
}

/** Where the item at `at` ends (its header checked by checkedEnd before). */
export function itemEnd(bytes: Uint8Array, at: number, invalid: Invalid): number {
  if (at >= bytes.length) throw invalid()
  const first = bytes[at]!
  if (first < 0x80) return at + 1
  if (first <= 0xb7) return at + 1 + first - 0x80
  if (first >= 0xc0 && first <= 0xf7) return at + 1 + first - 0xc0
  const header = headerLength(bytes, at)
  let length = 0
  for (let i = at + 1; i < at + header; i++) length = length * 256 + bytes[i]!
  return at + header + length
}
