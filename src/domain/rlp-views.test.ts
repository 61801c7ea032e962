import { RLP } from '@ethereumjs/rlp'
import { expect, test } from 'vitest'
import { decodeViews, type Item } from './rlp-views.js'

const invalid = () => new Error('test: invalid RLP')

/** An item as nested hex, compared as a string. */
const shape = (item: Item): string =>
  item instanceof Uint8Array ? Buffer.from(item).toString('hex') : `[${item.map(shape).join()}]`

/** What RLP.decode makes of `bytes`, or 'refused'. */
function decoded(bytes: Uint8Array): string {
  try {
    return shape(RLP.decode(bytes) as Item)
  } catch {
    return 'refused'
  }
}

function viewed(bytes: Uint8Array): string {
  try {
    return shape(decodeViews(bytes, invalid))
  } catch (err) {
    expect((err as Error).message).toBe('test: invalid RLP')
    return 'refused'
  }
}

/** Items of every header form: single bytes, short and long strings, short and long lists, nested, empty. */
const sample: Item = [
  Uint8Array.of(0),
  Uint8Array.of(0x7f),
  Uint8Array.of(0x80),
  new Uint8Array(0),
  new Uint8Array(55).fill(7),
  new Uint8Array(56).fill(8),
  new Uint8Array(300).fill(9),
  [],
  [Uint8Array.of(1), [Uint8Array.of(2, 3), new Uint8Array(60).fill(4)]],
  Array.from({ length: 30 }, (_, i) => Uint8Array.of(i + 0x80)),
]

test('an item reads as RLP.decode reads it, its strings views of the bytes given', () => {
  const bytes = RLP.encode(sample)
  const views = decodeViews(bytes, invalid) as Item[]
  expect(views).toEqual(RLP.decode(bytes))
  const long = views[6] as Uint8Array
  expect(long.buffer).toBe(bytes.buffer) // no copy
})

test('bytes changed, cut or added are refused wherever RLP.decode refuses them and read the same otherwise', () => {
  const bytes = RLP.encode(sample)
  const variants: Uint8Array[] = [
    bytes.subarray(0, 0),
    Uint8Array.of(...bytes, 0x80),
    // lengths with a leading zero byte, of a string and of a list
    Uint8Array.of(0xb9, 0x00, 0x38, ...new Array(56).fill(1)),
    Uint8Array.of(0xf9, 0x00, 0x38, ...new Array(56).fill(1)),
  ]
  // every header and the first bytes after it; inside a long string a change is only other data
  const places = [...Array(bytes.length).keys()].filter((i) => i < 24 || (i > 118 && i < 130) || i > bytes.length - 100)
  for (const i of places) {
    variants.push(bytes.subarray(0, i))
    for (const value of [0x00, 0x01, 0x37, 0x38, 0x7f, 0x80, 0x81, 0xb7, 0xb8, 0xb9, 0xbf, 0xc0, 0xf7, 0xf8, 0xff]) {
      const changed = bytes.slice()
      changed[i] = value
      variants.push(changed)
    }
  }
  let refused = 0
  for (const variant of variants) {
    const expected = variant.length === 0 ? 'refused' : decoded(variant) // decode answers empty bytes for none
    expect(viewed(variant)).toBe(expected)
    if (expected === 'refused') refused++
  }
  expect(refused).toBeGreaterThan(variants.length / 4) // many of them malformed
})
