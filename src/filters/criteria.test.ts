import { describe, expect, test } from 'vitest'
import { hexToBytes } from '@ethereumjs/util'
import { Bloom } from '@ethereumjs/vm'
import { bloomMayMatch, createCriteria, matchesLog } from './criteria.js'
import type { LogBody } from '../domain/types.js'
import type { Hex } from '../format/hex.js'

const token: Hex = '0x5fbdb2315678afecb367f032d93f642f64180aa3'
const other: Hex = '0xe7f1725e7734ce288f8367e1bb143e90bb3f0512'
const transfer: Hex = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef'
const approval: Hex = '0x8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b925'
const alice: Hex = `0x${'00'.repeat(12)}f39fd6e51aad88f6f4ce6ab8827279cfffb92266`
const bob: Hex = `0x${'00'.repeat(12)}70997970c51812dc3a010c7d01b50e0d17dc79c8`

function log(emitter: Hex, topics: Hex[]): LogBody {
  return { address: hexToBytes(emitter), topics: topics.map((t) => hexToBytes(t)), data: new Uint8Array(32) }
}

function bloomOf(...logs: LogBody[]): Uint8Array {
  const bloom = new Bloom()
  for (const l of logs) {
    bloom.add(l.address)
    for (const t of l.topics) bloom.add(t)
  }
  return bloom.bitvector
}

describe('log criteria', () => {
  const aliceToBob = log(token, [transfer, alice, bob])

  test('matches every log when neither address nor topics are given', () => {
    expect(matchesLog(createCriteria(undefined, undefined), aliceToBob)).toBe(true)
  })

  test('matches an address given in any letter case, alone or in a list', () => {
    expect(matchesLog(createCriteria(token.toUpperCase().replace('0X', '0x') as Hex, null), aliceToBob)).toBe(true)
    expect(matchesLog(createCriteria([other, token], null), aliceToBob)).toBe(true)
    expect(matchesLog(createCriteria([other], null), aliceToBob)).toBe(false)
  })

  test('treats null topics as wildcards and arrays as alternatives', () => {
    expect(matchesLog(createCriteria(null, [transfer, null, bob]), aliceToBob)).toBe(true)
    expect(matchesLog(createCriteria(null, [[approval, transfer]]), aliceToBob)).toBe(true)
    expect(matchesLog(createCriteria(null, [null, [bob]]), aliceToBob)).toBe(false)
    expect(matchesLog(createCriteria(null, [[approval, null]]), aliceToBob)).toBe(true)
  })

  test('does not match a log with fewer topics than the filter constrains', () => {
    expect(matchesLog(createCriteria(null, [transfer, null, null, null]), aliceToBob)).toBe(false)
  })

  test('lets a block through its bloom only when a match is possible', () => {
    const bloom = bloomOf(aliceToBob)
    expect(bloomMayMatch(createCriteria(token, [transfer]), bloom)).toBe(true)
    expect(bloomMayMatch(createCriteria([other, token], [[approval, transfer]]), bloom)).toBe(true)
    expect(bloomMayMatch(createCriteria(other, null), bloom)).toBe(false)
    expect(bloomMayMatch(createCriteria(null, [approval]), bloom)).toBe(false)
    expect(bloomMayMatch(createCriteria(null, null), new Uint8Array(256))).toBe(true)
  })
})
