import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { RLP } from '@ethereumjs/rlp'
import { bytesToHex } from '@ethereumjs/util'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { type RunningService, startService } from '../../src/service.js'
import { call } from '../support/rpc.js'

const FIXTURES = 'test/fixtures/rpc-compat'
const GENESIS = `${FIXTURES}/genesis.json`
const CHAIN = `${FIXTURES}/chain.rlp`

/** The fixture chain's blocks as RLP lists (header, transactions, uncles[, withdrawals]). */
function fixtureBlocks(): Uint8Array[][] {
  const blocks: Uint8Array[][] = []
  let rest: Uint8Array = new Uint8Array(readFileSync(CHAIN))
  while (rest.length > 0) {
    const { data, remainder } = RLP.decode(rest, true)
    blocks.push(data as Uint8Array[])
    rest = remainder
  }
  return blocks
}

function writeChain(blocks: unknown[][]): string {
  const file = join(mkdtempSync(join(tmpdir(), 'geth-chain-')), 'chain.rlp')
  writeFileSync(file, Buffer.concat(blocks.map((b) => RLP.encode(b as never))))
  return file
}

describe('--genesis, --import and --no-mining on the execution-apis test chain', () => {
  let service: RunningService

  beforeAll(async () => {
    service = await startService({
      port: 0,
      quiet: true,
      rateLimit: 0,
      genesis: GENESIS,
      importFile: CHAIN,
      mining: false,
    })
  }, 120_000)
  afterAll(() => service?.close())

  test('the genesis has the hash the first imported block names as its parent, and its chain id', async () => {
    const [header] = fixtureBlocks()[0] as unknown as Uint8Array[][]
    const genesis = await call(service.url, 'eth_getBlockByNumber', ['0x0', false])
    expect(genesis.hash).toBe(bytesToHex(header![0]!))
    expect(await call(service.url, 'eth_chainId')).toBe('0xc72dd9d5e883e')
    expect(await call(service.url, 'net_version')).toBe('3503995874084926')
  })

  test('all 54 blocks are executed and the head stays the last one: no block is mined', async () => {
    expect(await call(service.url, 'eth_blockNumber')).toBe('0x36')
    const head = await call(service.url, 'eth_getBlockByNumber', ['latest', false])
    expect(head.hash).toBe('0xd226371d0b1551adb03fb52b71f08e3e11247fe9b1af994768af8cdaa8e7dcd7')
    // nothing will mine one: the sequencer, which alone makes blocks unasked, was never started
    expect(await call(service.url, 'anvil_getAutomine')).toBe(false)
  })

  test('a pre-merge block keeps its proof-of-work fields and a pre-Byzantium receipt has root, not status', async () => {
    const block = await call(service.url, 'eth_getBlockByNumber', ['0x3', false])
    expect(BigInt(block.difficulty)).toBeGreaterThan(0n)
    expect(block).not.toHaveProperty('baseFeePerGas')
    const receipt = await call(service.url, 'eth_getTransactionReceipt', [block.transactions[0]])
    expect(receipt.root).toMatch(/^0x[0-9a-f]{64}$/)
    expect(receipt).not.toHaveProperty('status')
  })

  test('a pre-merge block with an uncle answers debug_getRawBlock with the bytes it was imported as', async () => {
    const imported = fixtureBlocks()[2]! // block 3, which has an uncle
    expect((imported as unknown as unknown[][])[2]).toHaveLength(1)
    expect(await call(service.url, 'debug_getRawBlock', ['0x3'])).toBe(bytesToHex(RLP.encode(imported as never)))
    const block = await call(service.url, 'eth_getBlockByNumber', ['0x3', false])
    expect(block.uncles).toHaveLength(1)
  })

  test('a pre-Byzantium receipt’s raw form commits to its state root, as the block’s receipts root does', async () => {
    const [raw] = (await call(service.url, 'debug_getRawReceipts', ['0x3'])) as string[]
    const receipt = await call(service.url, 'eth_getTransactionReceipt', [
      (await call(service.url, 'eth_getBlockByNumber', ['0x3', false])).transactions[0],
    ])
    const [outcome] = RLP.decode(raw as never) as Uint8Array[]
    expect(bytesToHex(outcome!)).toBe(receipt.root)
  })
})

describe('a bad block in --import', () => {
  test('stops the start with a message naming the block and what does not match', async () => {
    const blocks = fixtureBlocks().slice(0, 3) as unknown as Uint8Array[][][]
    const header = blocks[2]![0]!
    header[3] = new Uint8Array(32).fill(7) // block 3's state root
    const file = writeChain(blocks)
    await expect(
      startService({ port: 0, quiet: true, rateLimit: 0, genesis: GENESIS, importFile: file, mining: false }),
    ).rejects.toThrow(/^--import: block 3 \(0x[0-9a-f]{64}\) is invalid: invalid block stateRoot/)
  })

  test('a block that does not follow the previous one is named too', async () => {
    const blocks = fixtureBlocks()
    const file = writeChain([blocks[0]!, blocks[2]!])
    await expect(
      startService({ port: 0, quiet: true, rateLimit: 0, genesis: GENESIS, importFile: file, mining: false }),
    ).rejects.toThrow(/^--import: block 3 \(0x[0-9a-f]{64}\) does not follow block 1/)
  })

  test('--import without --genesis is refused', async () => {
    await expect(startService({ port: 0, quiet: true, importFile: CHAIN })).rejects.toThrow('--import needs --genesis')
  })
})
