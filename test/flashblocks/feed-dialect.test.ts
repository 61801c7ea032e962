/**
 * `--feed-dialect`: the leader's /ws/flashblocks reads like X Layer's feed (target_index on every payload, an
 * end-of-block message, receipts tagged `{"Eip1559": ...}` as X Layer's feed docs show, brotli frames behind
 * 0x1E) by default, or like Base's (neither target_index nor end message, receipts tagged by `type`,
 * `access_list: null`, bare brotli). Both decode to the same flashblocks. The service builds nothing by itself.
 */
import { once } from 'node:events'
import { brotliDecompressSync } from 'node:zlib'
import { afterEach, expect, test } from 'vitest'
import WebSocket from 'ws'
import { privateKeyToAccount } from 'viem/accounts'
import type { Chain } from '../../src/chain/chain.js'
import { decodeFrame } from '../../src/feed/codec.js'
import { decodeFlashblock } from '../../src/feed/decode.js'
import { type FlashblocksPayload, isEndOfBlock } from '../../src/feed/wire.js'
import type { RunningService } from '../../src/service.js'
import { BOB, DEV_KEY_1 } from '../support/dev-keys.js'
import { startFrozenService } from '../support/harness.js'
import { call } from '../support/rpc.js'
import { until } from '../support/wait-for.js'

let service: RunningService | undefined
const sockets: WebSocket[] = []
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.close()
  await service?.close()
})

/** One block on the feed: a transfer, two flashblocks, the seal; every frame each client got. */
async function oneBlock(feedDialect: 'xlayer' | 'base') {
  // an hour a block, a quarter of it a flashblock: nothing is built unless the test builds it
  service = await startFrozenService({ feedDialect, flashblockIntervalMs: 900_000 })
  const chain = service.chain as Chain
  const clients = await Promise.all(
    ['', '?compress=brotli'].map(async (query) => {
      const socket = new WebSocket(`${service!.wsUrl}ws/flashblocks${query}`)
      const frames: { data: Buffer; binary: boolean }[] = []
      socket.on('message', (data, binary) => frames.push({ data: data as Buffer, binary }))
      await once(socket, 'open')
      sockets.push(socket)
      return { socket, frames }
    }),
  )
  await chain.sealNow() // the service's first block opened before the clients came: the test's block is the next
  const raw = await privateKeyToAccount(DEV_KEY_1).signTransaction({
    chainId: 196,
    type: 'eip1559',
    to: BOB,
    value: 1n,
    gas: 21_000n,
    nonce: 0,
    maxFeePerGas: 10n ** 10n,
    maxPriorityFeePerGas: 10n ** 9n,
  })
  await chain.buildNow()
  await call(service.url, 'eth_sendRawTransaction', [raw])
  await chain.buildNow()
  await chain.sealNow()
  const [json, brotli] = clients
  return { json: json.frames as Frame[], brotli: brotli.frames as Frame[] }
}

type Frame = { data: Buffer; binary: boolean }

/** The frames of the block the test built: those under the payload id of the last index 0. */
function ofTestBlock(frames: Frame[]): Frame[] {
  const messages = frames.map((f) => decodeFrame(f.binary ? f.data : f.data.toString('utf8')))
  const opening = messages.findLast((m) => !isEndOfBlock(m) && m.index === 0)
  return frames.filter((_, i) => opening && messages[i].payload_id === opening.payload_id)
}

test('by default the feed speaks X Layer: target_index, an end-of-block message, tagged receipts, 0x1E brotli', async () => {
  const frames = await oneBlock('xlayer')
  await until(
    () => ofTestBlock(frames.json).length === 3 && ofTestBlock(frames.brotli).length === 3,
    'two flashblocks and the end of the block',
  )
  const [json, brotli] = [ofTestBlock(frames.json), ofTestBlock(frames.brotli)]
  const messages = json.map((f) => JSON.parse(f.data.toString('utf8')))
  expect(messages.map((m) => m.index)).toEqual([0, 1, undefined])
  // index 0 plans nothing (xlayer-reth's fallback flashblock); then the last index of the block: one flashblock
  // per quarter hour of the hour, indexes 0-3
  expect(messages.map((m) => m.target_index)).toEqual([0, 3, undefined])
  expect(isEndOfBlock(messages[2])).toBe(true)
  expect(Object.keys(messages[2])).toEqual(['payload_id'])
  const receipts = Object.values(messages[1].metadata.receipts) as Record<string, unknown>[]
  expect(Object.keys(receipts[0])).toEqual(['Eip1559'])
  expect('access_list' in messages[1].metadata).toBe(false)
  for (const frame of brotli) expect([frame.binary, frame.data[0]]).toEqual([true, 0x1e])
  expect(brotli.map((f) => decodeFrame(f.data))).toEqual(messages)
})

test('with --feed-dialect base it speaks Base: no target_index, no end message, typed receipts, bare brotli', async () => {
  const frames = await oneBlock('base')
  await until(() => ofTestBlock(frames.json).length === 2 && ofTestBlock(frames.brotli).length === 2, 'two flashblocks')
  const [json, brotli] = [ofTestBlock(frames.json), ofTestBlock(frames.brotli)]
  const messages = json.map((f) => JSON.parse(f.data.toString('utf8')) as FlashblocksPayload)
  expect(messages.map((m) => m.index)).toEqual([0, 1])
  expect(messages.every((m) => !('target_index' in m))).toBe(true)
  const metadata = messages[1].metadata
  expect(Object.keys(metadata)).toEqual(['block_number', 'new_account_balances', 'receipts', 'access_list'])
  expect(metadata.access_list).toBeNull()
  const [receipt] = Object.values(metadata.receipts) as Record<string, unknown>[]
  expect(receipt).toMatchObject({ type: '0x2', status: '0x1', logs: [] })
  // Base's decoder brotli-decompresses whatever does not start with `{`: no marker byte in front
  for (const frame of brotli) expect(frame.binary).toBe(true)
  expect(brotli.map((f) => JSON.parse(brotliDecompressSync(f.data).toString('utf8')))).toEqual(messages)
  // the follower's decoder reads it as it reads X Layer's
  expect(decodeFlashblock(messages[1]).metadata.receipts[0]).toMatchObject({ txType: 2, status: 1 })
})

test('--feed-dialect accepts xlayer or base only', async () => {
  await expect(startFrozenService({ feedDialect: 'geth' as never })).rejects.toThrow(
    '--feed-dialect must be xlayer or base, got "geth"',
  )
})

test("?format=xlayer-reth sends each message as xlayer-reth's sequencer pipe does: the P2P envelope, 0x1E brotli", async () => {
  service = await startFrozenService({ flashblockIntervalMs: 900_000 })
  const chain = service.chain as Chain
  const open = async (query: string) => {
    const socket = new WebSocket(`${service!.wsUrl}ws/flashblocks${query}`)
    const frames: Frame[] = []
    socket.on('message', (data, binary) => frames.push({ data: data as Buffer, binary }))
    await once(socket, 'open')
    sockets.push(socket)
    return frames
  }
  const [plain, piped] = [await open(''), await open('?format=xlayer-reth')]
  await chain.sealNow()
  await chain.buildNow()
  await until(() => plain.length === 2 && piped.length === 2, 'the end of a block and the next index 0')
  for (const frame of piped) expect([frame.binary, frame.data[0]]).toEqual([true, 0x1e])
  const unwrapped = piped.map((f) => JSON.parse(brotliDecompressSync(f.data.subarray(1)).toString('utf8')))
  expect(unwrapped.map((m) => Object.keys(m))).toEqual([['OpFlashblockPayload'], ['OpFlashblockPayload']])
  expect(unwrapped.map((m) => m.OpFlashblockPayload)).toEqual(plain.map((f) => JSON.parse(f.data.toString('utf8'))))
  // and the follower's decoder reads it
  expect(piped.map((f) => decodeFrame(f.data))).toEqual(unwrapped.map((m) => m.OpFlashblockPayload))
})
