import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { type Hex, getAddress, pad, parseAbiItem, toHex } from 'viem'
import { MAX_LOG_BLOCK_RANGE } from '../../src/limits.js'
import { BOB, CAROL } from '../support/dev-keys.js'
import { APPROVAL_TOPIC, testToken, TRANSFER_TOPIC } from '../support/fixtures.js'
import { type Harness, startHarness } from '../support/harness.js'

const transferEvent = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)')
const topicOf = (address: Hex) => pad(address, { size: 32 })

describe('logs and polling filters on the general endpoint', () => {
  let h: Harness
  let token: Hex
  let deployBlock: bigint
  let toBobBlock: bigint
  let toCarolBlock: bigint

  beforeAll(async () => {
    h = await startHarness()
    const deployed = await h.deployToken(1000n)
    token = deployed.address
    deployBlock = deployed.block.number
    await h.transferToken(token, BOB, 10n)
    toBobBlock = (await h.mine()).number
    await h.wallet.writeContract({
      address: token,
      abi: testToken.abi,
      functionName: 'approve',
      args: [CAROL, 5n],
      gas: 100_000n,
      ...h.fees(),
    })
    await h.transferToken(token, CAROL, 20n)
    toCarolBlock = (await h.mine()).number
  })
  afterAll(() => h?.close())

  test('reads Transfer events over a range with viem, decoded', async () => {
    const logs = await h.general.getLogs({ address: token, event: transferEvent, fromBlock: 0n, toBlock: 'latest' })
    expect(logs.map((l) => [l.args.to, l.args.value])).toEqual([
      [h.alice.address, 1000n],
      [getAddress(BOB), 10n],
      [getAddress(CAROL), 20n],
    ])
    expect(logs.map((l) => l.blockNumber)).toEqual([deployBlock, toBobBlock, toCarolBlock])
  })

  test('filters by indexed topics, with null wildcards and OR arrays', async () => {
    const query = async (topics: unknown[]) =>
      (await h.rpc('general', 'eth_getLogs', [{ fromBlock: '0x0', address: token, topics }])).result as {
        topics: Hex[]
      }[]
    expect(await query([TRANSFER_TOPIC, null, topicOf(BOB)])).toHaveLength(1)
    expect(await query([TRANSFER_TOPIC, topicOf(h.alice.address)])).toHaveLength(2)
    expect(await query([[TRANSFER_TOPIC, APPROVAL_TOPIC]])).toHaveLength(4)
    expect(await query([APPROVAL_TOPIC])).toHaveLength(1)
    expect(await query([null, null, [topicOf(BOB), topicOf(CAROL)]])).toHaveLength(3)
    expect(await query([TRANSFER_TOPIC, null, null, null])).toHaveLength(0)
  })

  test('matches any of several addresses and nothing from an address that emitted nothing', async () => {
    const many = await h.rpc('general', 'eth_getLogs', [{ fromBlock: 'earliest', address: [CAROL, token] }])
    expect(many.result).toHaveLength(4)
    const none = await h.rpc('general', 'eth_getLogs', [{ fromBlock: 'earliest', address: CAROL }])
    expect(none.result).toEqual([])
  })

  test('reads the logs of one block by its hash, with block-wide log indexes', async () => {
    const block = await h.general.getBlock({ blockNumber: toCarolBlock })
    const logs = (await h.rpc('general', 'eth_getLogs', [{ blockHash: block.hash }])).result as {
      logIndex: Hex
      transactionIndex: Hex
    }[]
    expect(logs.map((l) => [l.transactionIndex, l.logIndex])).toEqual([
      // index 0 is the block's L1-info deposit (no logs)
      ['0x1', '0x0'],
      ['0x2', '0x1'],
    ])
  })

  test('takes the latest block when no range is given', async () => {
    const logs = await h.rpc('general', 'eth_getLogs', [{ address: token }])
    // the approval and the transfer to Carol, both in the newest block
    expect(
      (logs.result as { blockNumber: Hex; topics: Hex[] }[]).map((l) => [BigInt(l.blockNumber), l.topics[0]]),
    ).toEqual([
      [toCarolBlock, APPROVAL_TOPIC],
      [toCarolBlock, TRANSFER_TOPIC],
    ])
  })

  test('rejects a range that ends before it starts, a range over the block limit, and both a hash and a range', async () => {
    const backwards = await h.rpc('general', 'eth_getLogs', [
      { fromBlock: toHex(toCarolBlock), toBlock: toHex(deployBlock) },
    ])
    expect(backwards.error).toMatchObject({ code: -32602, message: 'invalid block range params' })
    const wide = await h.rpc('general', 'eth_getLogs', [{ fromBlock: '0x0', toBlock: toHex(MAX_LOG_BLOCK_RANGE) }])
    expect(wide.error?.code).toBe(-32005)
    expect(wide.error?.message).toContain(`max block range ${MAX_LOG_BLOCK_RANGE}`)
    const block = await h.general.getBlock()
    const both = await h.rpc('general', 'eth_getLogs', [{ blockHash: block.hash, fromBlock: '0x0' }])
    expect(both.error?.code).toBe(-32602)
  })

  test('delivers new Transfer logs to an eth_newFilter filter, once', async () => {
    const id = (await h.rpc('general', 'eth_newFilter', [{ address: token, topics: [TRANSFER_TOPIC] }])).result as Hex
    expect(id).toMatch(/^0x[0-9a-f]{32}$/)
    expect((await h.rpc('general', 'eth_getFilterChanges', [id])).result).toEqual([])
    const hash = await h.transferToken(token, BOB, 1n)
    await h.mine()
    const changes = (await h.rpc('general', 'eth_getFilterChanges', [id])).result as { transactionHash: Hex }[]
    expect(changes.map((c) => c.transactionHash)).toEqual([hash])
    expect((await h.rpc('general', 'eth_getFilterChanges', [id])).result).toEqual([])
    const all = (await h.rpc('general', 'eth_getFilterLogs', [id])).result as unknown[]
    expect(all).toHaveLength(1) // the filter's range is `latest`
  })

  test("works with viem's createEventFilter and getFilterChanges, filtering on an indexed argument", async () => {
    const filter = await h.general.createEventFilter({ address: token, event: transferEvent, args: { to: CAROL } })
    await h.transferToken(token, BOB, 2n)
    await h.transferToken(token, CAROL, 3n)
    await h.mine()
    const changes = await h.general.getFilterChanges({ filter })
    expect(changes.map((c) => [c.args.to, c.args.value])).toEqual([[getAddress(CAROL), 3n]])
    expect(await h.general.uninstallFilter({ filter })).toBe(true)
  })

  test('reads every log a filter with a range matches through eth_getFilterLogs', async () => {
    const filter = await h.general.createEventFilter({
      address: token,
      event: transferEvent,
      fromBlock: 0n,
      toBlock: toCarolBlock,
    })
    const logs = await h.general.getFilterLogs({ filter })
    expect(logs.map((l) => l.args.value)).toEqual([1000n, 10n, 20n])
  })

  test('reports the hashes of newly sealed blocks to a block filter', async () => {
    const filter = await h.general.createBlockFilter()
    const first = await h.mine()
    const second = await h.mine()
    expect(await h.general.getFilterChanges({ filter })).toEqual([first, second].map((b) => toHex(b.hash)))
    expect(await h.general.getFilterChanges({ filter })).toEqual([])
  })

  test('reports accepted transactions to a pending-transaction filter', async () => {
    const filter = await h.general.createPendingTransactionFilter()
    const hash = await h.transferToken(token, BOB, 1n)
    expect(await h.general.getFilterChanges({ filter })).toEqual([hash])
    await h.mine()
  })

  test('uninstalls a filter once: true, then false, and polling it afterwards fails with `filter not found`', async () => {
    const id = (await h.rpc('general', 'eth_newBlockFilter', [])).result as Hex
    expect((await h.rpc('general', 'eth_uninstallFilter', [id])).result).toBe(true)
    expect((await h.rpc('general', 'eth_uninstallFilter', [id])).result).toBe(false)
    const poll = await h.rpc('general', 'eth_getFilterChanges', [id])
    expect(poll.error).toMatchObject({ code: -32000, message: 'filter not found' })
  })
})
