/**
 * Blocks converted from an upstream's JSON answer, through the project's own formatters, exactly what the
 * upstream answered: blocks (hashes and hydrated), transactions and receipts, on anvil and on our own
 * service. Fields only one side serves are listed, not hidden: the expected lists below are the report.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { blockSize } from '../../src/domain/block-record.js'
import { createChainCommon } from '../../src/evm/chain-common.js'
import { blockFromUpstream, UnverifiableBlockError } from '../../src/follower/from-upstream.js'
import { formatBlockRecord } from '../../src/format/block.js'
import { formatReceipt } from '../../src/format/receipt.js'
import { startService, type RunningService } from '../../src/service.js'
import { startAnvil, type RunningAnvil } from '../support/anvil.js'
import { sendScenario } from '../support/follower-scenario.js'
import { call as rpc } from '../support/rpc.js'
import { until } from '../support/wait-for.js'

const common = createChainCommon({ chainId: 196, gasLimit: 30_000_000n, baseFee: 1_000_000_000n })

// biome-ignore lint/suspicious/noExplicitAny: upstream JSON read field by field in assertions
type Json = Record<string, any>

/** The upstream's value of every field we serve must be ours; returns the fields only one side has. */
function compare(ours: Json, theirs: Json, where: string, onlyTheirs: Set<string>, onlyOurs: Set<string>): void {
  for (const key of Object.keys(theirs)) if (!(key in ours)) onlyTheirs.add(`${where}.${key}`)
  for (const key of Object.keys(ours)) {
    if (!(key in theirs)) onlyOurs.add(`${where}.${key}`)
    else if (key === 'logs')
      ours.logs.forEach((log: Json, i: number) => compare(log, theirs.logs[i], 'log', onlyTheirs, onlyOurs))
    else expect({ where, key, value: ours[key] }).toEqual({ where, key, value: theirs[key] })
  }
}

/** Converts every block of the upstream and compares it back; returns the one-sided fields. */
async function roundTrip(
  url: string,
): Promise<{ blocks: number; txs: number; sizeDiffs: number[]; onlyTheirs: string[]; onlyOurs: string[] }> {
  const onlyTheirs = new Set<string>()
  const onlyOurs = new Set<string>()
  const sizeDiffs = new Set<number>()
  const head = Number(await rpc(url, 'eth_blockNumber'))
  let txs = 0
  for (let n = 0; n <= head; n++) {
    const tag = `0x${n.toString(16)}`
    const [full, light, receipts] = await Promise.all([
      rpc(url, 'eth_getBlockByNumber', [tag, true]),
      rpc(url, 'eth_getBlockByNumber', [tag, false]),
      rpc(url, 'eth_getBlockReceipts', [tag]),
    ])
    const record = blockFromUpstream(full, receipts, common)
    // the record keeps the upstream's size; collect how far the embedded chain's own RLP count is from it
    sizeDiffs.add(blockSize(record.header, record.txs) - record.size)
    const hydrated = formatBlockRecord(record, true) as Json
    compare(
      { ...formatBlockRecord(record, false), transactions: undefined },
      { ...light, transactions: undefined },
      'block',
      onlyTheirs,
      onlyOurs,
    )
    expect(formatBlockRecord(record, false).transactions).toEqual(light.transactions)
    hydrated.transactions.forEach((tx: Json, i: number) =>
      compare(tx, full.transactions[i], 'tx', onlyTheirs, onlyOurs),
    )
    record.txs.forEach((_, i) => compare(formatReceipt(record, i), receipts[i], 'receipt', onlyTheirs, onlyOurs))
    txs += record.txs.length
  }
  return {
    blocks: head + 1,
    txs,
    sizeDiffs: [...sizeDiffs],
    onlyTheirs: [...onlyTheirs].sort(),
    onlyOurs: [...onlyOurs].sort(),
  }
}

describe('converting an upstream block reproduces its JSON', () => {
  let anvil: RunningAnvil
  let service: RunningService
  let anvilHashes: string[]
  beforeAll(async () => {
    ;[anvil, service] = await Promise.all([
      startAnvil(),
      startService({ port: 0, quiet: true, rateLimit: 0, blockTimeMs: 300, flashblockIntervalMs: 100 }),
    ])
    // anvil puts the batch into one block: several transactions and logs per block
    await rpc(anvil.url, 'evm_setAutomine', [false])
    await rpc(anvil.url, 'evm_setIntervalMining', [1])
    let ourHashes: string[]
    ;[anvilHashes, ourHashes] = await Promise.all([sendScenario(anvil.url), sendScenario(service.url)])
    // sendScenario returns at preconfirmation; a receipt on the general endpoint means the block is sealed
    await until(
      async () =>
        (await Promise.all(ourHashes.map((h) => rpc(service.url, 'eth_getTransactionReceipt', [h])))).every(Boolean),
      'every sent transaction in a sealed block',
    )
  }, 60_000)
  afterAll(async () => {
    anvil?.close()
    await service?.close()
  })

  test('every block, transaction and receipt of anvil converts back to anvil’s own answer', async () => {
    const result = await roundTrip(anvil.url)
    expect(result.txs).toBe(7)
    expect(result.onlyOurs).toEqual([])
    // anvil's `size` leaves out the block's (empty) withdrawals list, one byte; geth and we count it
    expect(result.sizeDiffs).toEqual([1])
    expect(result.onlyTheirs).toEqual(['block.totalDifficulty', 'receipt.blobGasPrice', 'receipt.blockTimestamp'])
  }, 60_000)

  test('every block, transaction and receipt of our own service converts back to its own answer', async () => {
    const result = await roundTrip(service.url)
    // the 7 user transactions and every block's L1-info deposit (genesis has none): deposits round-trip too
    expect(result.txs).toBe(7 + result.blocks - 1)
    expect(result).toMatchObject({ onlyOurs: [], onlyTheirs: [], sizeDiffs: [0] })
  }, 60_000)

  test('a block whose fields do not hash to its hash is refused', async () => {
    const { blockNumber } = await rpc(anvil.url, 'eth_getTransactionReceipt', [anvilHashes[1]])
    const block = await rpc(anvil.url, 'eth_getBlockByNumber', [blockNumber, true])
    const receipts = await rpc(anvil.url, 'eth_getBlockReceipts', [blockNumber])
    expect(() => blockFromUpstream({ ...block, gasUsed: '0x1' }, receipts, common)).toThrow(UnverifiableBlockError)
    expect(() => blockFromUpstream(block, receipts.slice(1), common)).toThrow(/receipts for/)
    const forged = receipts.map((r: Json, i: number) => (i === 0 ? { ...r, cumulativeGasUsed: '0x1' } : r))
    expect(() => blockFromUpstream(block, forged, common)).toThrow(/receiptsRoot/)
    const otherSender = block.transactions.map((t: Json, i: number) =>
      i === 0 ? { ...t, from: '0x0000000000000000000000000000000000000001' } : t,
    )
    expect(() => blockFromUpstream({ ...block, transactions: otherSender }, receipts, common)).toThrow(/recovers/)
  })
})
