/**
 * The root of the trie keyed by RLP(0..n-1), i.e. transactionsRoot / receiptsRoot, built in one pass
 * over the sorted keys. Same roots as MPT puts, ~30x faster (13 ms for 1000 entries with WASM keccak,
 * against 406 ms; evm-engine.md section 1), which matters because every flashblock recomputes both.
 */
import { RLP } from '@ethereumjs/rlp'
import { keccak256 } from './crypto.js'

type Node = Uint8Array | Node[]

export function orderedTrieRoot(values: readonly Uint8Array[]): Uint8Array {
  if (values.length === 0) return keccak256(RLP.encode(new Uint8Array()))
  const items = values.map((value, i) => ({ nib: toNibbles(RLP.encode(i)), value }))
  items.sort((a, b) => compareNibbles(a.nib, b.nib))

  // a child shorter than 32 bytes is embedded, a longer one referenced by hash; the root is always hashed
  const ref = (node: Node, top = false): Node => {
    const enc = RLP.encode(node)
    return enc.length < 32 && !top ? node : keccak256(enc)
  }
  const build = (lo: number, hi: number, depth: number): Node => {
    if (hi - lo === 1) return [hexPrefix(items[lo].nib.subarray(depth), true), items[lo].value]
    const a = items[lo].nib
    const b = items[hi - 1].nib
    let p = depth
    while (p < a.length && p < b.length && a[p] === b[p]) p++
    if (p > depth) return [hexPrefix(a.subarray(depth, p), false), ref(build(lo, hi, p))]
    const branch: Node[] = new Array(17).fill(new Uint8Array())
    let i = lo
    if (items[i].nib.length === depth) branch[16] = items[i++].value
    while (i < hi) {
      const nibble = items[i].nib[depth]
      let j = i
      while (j < hi && items[j].nib[depth] === nibble) j++
      branch[nibble] = ref(build(i, j, depth + 1))
      i = j
    }
    return branch
  }
  return ref(build(0, items.length, 0), true) as Uint8Array
}

function toNibbles(bytes: Uint8Array): Uint8Array {
  const out = new Uint8Array(bytes.length * 2)
  for (let i = 0; i < bytes.length; i++) {
    out[2 * i] = bytes[i] >> 4
    out[2 * i + 1] = bytes[i] & 15
  }
  return out
}

function compareNibbles(a: Uint8Array, b: Uint8Array): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i] - b[i]
  return a.length - b.length
}

/** Compact (hex-prefix) encoding of a key fragment, flagging leaf vs extension and odd length. */
function hexPrefix(nibbles: Uint8Array, leaf: boolean): Uint8Array {
  const odd = nibbles.length % 2
  const out = new Uint8Array(Math.floor(nibbles.length / 2) + 1)
  out[0] = ((leaf ? 2 : 0) + odd) << 4
  let j = 0
  if (odd) out[0] |= nibbles[j++]
  for (let i = 1; i < out.length; i++, j += 2) out[i] = (nibbles[j] << 4) | nibbles[j + 1]
  return out
}
