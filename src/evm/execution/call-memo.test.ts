import type { BlockHeader } from '@ethereumjs/block'
import { expect, test } from 'vitest'
import type { CallRequest } from '../../domain/call-request.js'
import { CALL_MEMO_ENTRIES } from '../../limits.js'
import { type CallAnswer, CallMemo } from './call-memo.js'

const header = {} as BlockHeader
/** A block before `header`: a call asked there is kept at its first ask on `header`. */
const earlier = {} as BlockHeader
const bytes = (text: string) => Uint8Array.from(Buffer.from(text, 'latin1'))
const to = bytes('t'.repeat(20))
/**
 * Runs each request through the memo on `block`, each run answering at once (`sync`, as a call whose reads
 * are all in memory) or after a wait; how many runs it took and what each was answered.
 */
async function ask(memo: CallMemo, requests: CallRequest[], gas = 30_000_000n, block = header, sync = false) {
  let runs = 0
  const answers: unknown[] = []
  for (const request of requests) {
    const run = () => {
      runs++
      const result = { execResult: { returnValue: Uint8Array.of(runs), executionGasUsed: 0n } } as CallAnswer
      return sync ? result : Promise.resolve(result)
    }
    const answer = await memo.answer(block, request, gas, run as never)
    answers.push(answer?.execResult.returnValue[0])
  }
  return { runs, answers }
}

/** Asks each request once on an earlier block, so that `header` keeps it at its first ask. */
const askedBefore = (memo: CallMemo, requests: CallRequest[], gas?: bigint) => ask(memo, requests, gas, earlier)

test('a call asked once is not kept: its second ask runs it again, and the memo answers it from then on', async () => {
  for (const sync of [true, false]) {
    const memo = new CallMemo()
    const call = { to, data: bytes('balanceOf(a new holder)') }
    expect(await ask(memo, [call, call, call, call], undefined, header, sync)).toEqual({
      runs: 2,
      answers: [1, 2, 2, 2],
    })
  }
})

test('a call asked on an earlier block is kept at its first ask on the next block', async () => {
  const memo = new CallMemo()
  const call = { to, data: bytes('price()') }
  await askedBefore(memo, [call])
  expect(await ask(memo, [call, call, call])).toEqual({ runs: 1, answers: [1, 1, 1] })
})

test('a call asked again while its first run waits shares that run, and is kept for the askers after', async () => {
  const memo = new CallMemo()
  const call = { to, data: bytes('totalSupply()') }
  let runs = 0
  const run = async () => {
    runs++
    return { execResult: { returnValue: Uint8Array.of(9), executionGasUsed: 0n } } as CallAnswer
  }
  await Promise.all([memo.answer(header, call, 1n, run), memo.answer(header, call, 1n, run)])
  const after = memo.answer(header, call, 1n, run)
  expect(after).not.toBeInstanceOf(Promise)
  expect(runs).toBe(1)
})

test('calls that differ in any byte of sender or calldata get their own answers, bytes spelling digits and separators too', async () => {
  // joined as to + from + ":" + gas + ":" + data, these two would be one key: the sender's bytes spell the
  // separator and the gas limit, and the first call's calldata spells the rest of the second's key
  const crafted = bytes(`:30000000:${'x'.repeat(10)}`)
  const calls = [
    { to, data: bytes(`${'x'.repeat(10)}:30000000:abc`) },
    { to, from: crafted, data: bytes('abc') },
    { to, from: crafted, data: bytes('abd') },
  ]
  const memo = new CallMemo()
  await askedBefore(memo, calls)
  const { runs, answers } = await ask(memo, [...calls, calls[1]!])
  expect(runs).toBe(3)
  expect(answers).toEqual([1, 2, 3, 2])
})

test('two calls the memo files under one number get their own answers, the newer one kept', async () => {
  // these two calldatas share a call id (FNV-1a of the fields, 31 bits) with this `to` and gas limit
  const first = { to, data: bytes('call 68867') }
  const second = { to, data: bytes('call 113849') }
  const memo = new CallMemo()
  const { runs, answers } = await ask(memo, [first, second, second])
  expect({ runs, answers }).toEqual({ runs: 2, answers: [1, 2, 2] })
  expect((await ask(memo, [first])).runs).toBe(1)
})

test('the same call asked again is answered once per gas limit; one with a field outside the key runs every time', async () => {
  const memo = new CallMemo()
  await askedBefore(memo, [{ to, data: bytes('a') }])
  await askedBefore(memo, [{ to, data: bytes('a') }], 50_000n)
  expect(
    (
      await ask(memo, [
        { to, data: bytes('a') },
        { to, data: bytes('a') },
      ])
    ).runs,
  ).toBe(1)
  expect((await ask(memo, [{ to, data: bytes('a') }], 50_000n)).runs).toBe(1)
  // an absent sender runs as the zero address: the two are one call
  expect((await ask(memo, [{ to, from: new Uint8Array(20), data: bytes('a') }])).runs).toBe(0)
  expect(
    (
      await ask(memo, [
        { to, data: bytes('a'), value: 0n },
        { to, data: bytes('a'), value: 0n },
      ])
    ).runs,
  ).toBe(2)
})

test('a block full of distinct calls forgets its oldest ones first, and keeps answering the newest', async () => {
  const memo = new CallMemo()
  const call = (i: number) => ({ to, data: bytes(`call ${i}`) })
  const all = Array.from({ length: CALL_MEMO_ENTRIES + 10 }, (_, i) => call(i))
  await askedBefore(memo, all)
  expect((await ask(memo, all)).runs).toBe(all.length)
  expect((await ask(memo, all.slice(-CALL_MEMO_ENTRIES))).runs).toBe(0)
  expect((await ask(memo, [call(0)])).runs).toBe(1)
})

test('a call whose first run waited is answered at once, without a promise, once that run has settled', async () => {
  const memo = new CallMemo()
  const run = async () => ({ execResult: { returnValue: Uint8Array.of(7), executionGasUsed: 0n } }) as CallAnswer
  await askedBefore(memo, [{ to, data: bytes('a') }], 1n)
  const first = memo.answer(header, { to, data: bytes('a') }, 1n, run)
  expect(first).toBeInstanceOf(Promise)
  await first
  const again = memo.answer(header, { to, data: bytes('a') }, 1n, run)
  expect(again).not.toBeInstanceOf(Promise)
  expect((again as CallAnswer).execResult.returnValue).toEqual(Uint8Array.of(7))
})
