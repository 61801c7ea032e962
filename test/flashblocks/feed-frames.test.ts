import { once } from 'node:events'
import { fileURLToPath } from 'node:url'
import { Ajv } from 'ajv'
import { keccak256, parseEther, parseTransaction, type Hex } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import WebSocket from 'ws'
import { loadDocument } from '../../codegen/load-document.js'
import { createHttpClient } from '../../generated/client.js'
import { startService, type RunningService } from '../../src/service.js'
import { testToken } from '../support/fixtures.js'
import { clientsFor, deployTestToken } from '../support/service-clients.js'
import { until } from '../support/wait-for.js'
import { BROTLI_FRAME_PREFIX, decodeFrame } from '../../src/feed/codec.js'
import { isEndOfBlock, type FeedMessage, type FlashblockReceipt, type FlashblocksPayload } from '../../src/feed/wire.js'

const SCHEMA_ID = 'https://preconf-rpc.local/openrpc.json'
// The feed's message schemas are OpenRPC components that no method references, and generated/openrpc.json
// keeps only the components its methods reach, so they are read from the source document (openrpc/), as
// draft-07 definitions: ajv resolves $refs only inside schemas.
const source = await loadDocument(fileURLToPath(new URL('../../openrpc', import.meta.url)))
const schemas = JSON.parse(
  JSON.stringify(source.document.components.schemas).replaceAll('#/components/schemas/', `${SCHEMA_ID}#/definitions/`),
) as object
const ajv = new Ajv({ strict: false, allErrors: true })
ajv.addSchema({ $id: SCHEMA_ID, definitions: schemas })
const validatePayload = ajv.compile({ $ref: `${SCHEMA_ID}#/definitions/FlashblocksPayload` })
const validateEnd = ajv.compile({ $ref: `${SCHEMA_ID}#/definitions/FlashblocksEnd` })

let service: RunningService

beforeAll(async () => {
  service = await startService({ port: 0, quiet: true })
})

afterAll(async () => {
  await service?.close()
})

/** A raw feed client that records every frame as it arrives. */
async function feedClient(query = ''): Promise<{ socket: WebSocket; frames: { data: Buffer; binary: boolean }[] }> {
  const socket = new WebSocket(`${service.wsUrl}ws/flashblocks${query}`)
  const frames: { data: Buffer; binary: boolean }[] = []
  socket.on('message', (data, binary) => frames.push({ data: data as Buffer, binary }))
  await once(socket, 'open')
  return { socket, frames }
}

type RebuiltBlock = { payloadId: string; number: bigint; indexes: number[]; txs: Hex[]; last: FlashblocksPayload }

/** Concatenates the diffs of each payload_id; a block is complete at its end-of-block message. */
function rebuild(messages: FeedMessage[]): RebuiltBlock[] {
  const open = new Map<string, RebuiltBlock>()
  const done: RebuiltBlock[] = []
  for (const message of messages) {
    if (isEndOfBlock(message)) {
      const block = open.get(message.payload_id)
      if (block) done.push(block)
      open.delete(message.payload_id)
      continue
    }
    let block = open.get(message.payload_id)
    if (!block) {
      if (message.index !== 0) continue // joined mid-block
      expect(message.base).toBeDefined()
      block = {
        payloadId: message.payload_id,
        number: BigInt(message.base!.block_number),
        indexes: [],
        txs: [],
        last: message,
      }
      open.set(message.payload_id, block)
    } else {
      expect(message.base).toBeUndefined()
    }
    expect(BigInt(message.metadata.block_number)).toBe(block.number)
    block.indexes.push(message.index)
    block.txs.push(...message.diff.transactions)
    block.last = message
  }
  return done
}

describe('the raw flashblocks feed at /ws/flashblocks', () => {
  // thirteen transactions sent one by one, a block sealed, every frame checked: a minute on a busy machine
  test('rebuilds every sealed block exactly: same transactions in order, same hash and roots', {
    timeout: 120_000,
  }, async () => {
    const json = await feedClient()
    const brotli = await feedClient('?compress=brotli')
    const { wallet, publicHttp } = clientsFor(service)
    const token = await deployTestToken(service)
    const sent: Hex[] = []
    for (let i = 0; i < 6; i++) {
      sent.push(
        await wallet.sendTransaction({
          to: '0x70997970c51812dc3a010c7d01b54a0d8d1dc79c',
          value: parseEther('0.001'),
          gas: 21_000n,
        }),
      )
      sent.push(
        await wallet.writeContract({
          address: token,
          abi: testToken.abi,
          functionName: 'transfer',
          args: ['0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc', 5n],
          gas: 100_000n,
        }),
      )
    }
    const lastReceipt = await publicHttp.waitForTransactionReceipt({ hash: sent.at(-1)!, pollingInterval: 50 })
    // wait until the block holding the last transaction has been closed on the feed
    const http = createHttpClient(service.url)
    const target = lastReceipt.blockNumber
    const rebuilt = () => rebuild(json.frames.map((f) => decodeFrame(f.data.toString('utf8'))))
    await until(() => rebuilt().some((b) => b.number === target), `block ${target} closed on the feed`)
    const blocks = rebuilt()
    json.socket.close()
    brotli.socket.close()

    expect(json.frames.every((f) => !f.binary)).toBe(true)
    const messages = json.frames.map((f) => JSON.parse(f.data.toString('utf8')) as FeedMessage)
    for (const message of messages) {
      const valid = isEndOfBlock(message) ? validateEnd(message) : validatePayload(message)
      expect(valid, JSON.stringify((isEndOfBlock(message) ? validateEnd : validatePayload).errors)).toBe(true)
    }

    // the schema does reject what a consumer could not read
    const sample = messages.find((m): m is FlashblocksPayload => !isEndOfBlock(m))!
    expect(validatePayload({ ...sample, metadata: { ...sample.metadata, block_number: '0x1' } })).toBe(false)
    expect(validatePayload({ ...sample, diff: { ...sample.diff, gas_used: '0x01' } })).toBe(false)

    const seen = new Set<string>()
    for (const block of blocks) {
      expect(block.indexes).toEqual(block.indexes.map((_, i) => i))
      const canonical = (await http.call('eth_getBlockByNumber', [`0x${block.number.toString(16)}`, false])) as Record<
        string,
        unknown
      >
      expect(block.txs.map((raw) => keccak256(raw))).toEqual(canonical.transactions)
      // index 0 opens with the L1-info deposit (0x7e: no chain id); the rest are signed for this chain
      expect(block.txs[0]!.slice(0, 4)).toBe('0x7e')
      for (const raw of block.txs.slice(1)) expect(parseTransaction(raw).chainId).toBe(service.config.chainId)
      expect(block.last.diff.block_hash).toBe(canonical.hash)
      expect(block.last.diff.state_root).toBe(canonical.stateRoot)
      expect(block.last.diff.receipts_root).toBe(canonical.receiptsRoot)
      expect(block.last.diff.logs_bloom).toBe(canonical.logsBloom)
      expect(block.last.diff.gas_used).toBe(canonical.gasUsed)
      for (const raw of block.txs) seen.add(keccak256(raw))
    }
    for (const hash of sent) expect(seen.has(hash)).toBe(true)

    // the brotli stream carries the same messages, in binary frames starting with 0x1E
    expect(brotli.frames.length).toBeGreaterThan(0)
    for (const frame of brotli.frames) {
      expect(frame.binary).toBe(true)
      expect(frame.data[0]).toBe(BROTLI_FRAME_PREFIX)
    }
    // the same sequence: the brotli client joined a moment later and may have a frame the JSON one closed before
    const jsonKeys = messages.map((m) => JSON.stringify(m))
    const brotliKeys = brotli.frames.map((f) => JSON.stringify(decodeFrame(f.data)))
    const start = jsonKeys.indexOf(brotliKeys[0]!)
    expect(start).toBeGreaterThanOrEqual(0)
    const overlap = Math.min(brotliKeys.length, jsonKeys.length - start)
    expect(overlap).toBeGreaterThan(0)
    expect(brotliKeys.slice(0, overlap)).toEqual(jsonKeys.slice(start, start + overlap))
  })

  test('metadata carries the receipts of the new transactions, tagged by type, and block_number as a number', async () => {
    const feed = await feedClient()
    const { wallet, publicHttp } = clientsFor(service)
    const hash = await wallet.sendTransaction({
      to: '0x90f79bf6eb2c4f870365e785982e1f101e93b906',
      value: 1n,
      gas: 21_000n,
    })
    await publicHttp.waitForTransactionReceipt({ hash, pollingInterval: 50 })
    feed.socket.close()
    const carrying = feed.frames
      .map((f) => JSON.parse(f.data.toString('utf8')) as FeedMessage)
      .find(
        (m): m is FlashblocksPayload =>
          !isEndOfBlock(m) && m.diff.transactions.some((raw) => keccak256(raw as Hex) === hash),
      )
    expect(carrying).toBeDefined()
    expect(typeof carrying!.metadata.block_number).toBe('number')
    const receipt = carrying!.metadata.receipts[hash]
    expect(receipt).toBeDefined()
    expect(Object.keys(receipt!)).toEqual(['Eip1559'])
    expect((receipt as FlashblockReceipt).Eip1559!.status).toBe('0x1')
    expect(carrying!.metadata.new_account_balances['0x90f79bf6eb2c4f870365e785982e1f101e93b906']).toMatch(
      /^0x[0-9a-f]+$/,
    )
  })
})
