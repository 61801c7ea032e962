import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { type Hex, parseEther, toHex } from 'viem'
import { BOB, CAROL } from '../support/dev-keys.js'
import { testToken } from '../support/fixtures.js'
import { type Harness, startHarness } from '../support/harness.js'

const SUPPLY = 1_000_000n * 10n ** 18n

describe('reading state, blocks and transactions on the general endpoint', () => {
  let h: Harness
  let token: Hex
  let deployBlock: bigint
  let transferHash: Hex
  let transferBlock: bigint

  beforeAll(async () => {
    h = await startHarness()
    const deployed = await h.deployToken(SUPPLY)
    token = deployed.address
    deployBlock = deployed.block.number
    transferHash = await h.transferToken(token, BOB, 250n)
    transferBlock = (await h.mine()).number
  })
  afterAll(() => h?.close())

  test('reports the height of the newest sealed block', async () => {
    expect(await h.general.getBlockNumber({ cacheTime: 0 })).toBe(transferBlock)
  })

  test('reads ERC-20 balances now and as they were at an older block', async () => {
    const read = (account: Hex, blockNumber?: bigint) =>
      h.general.readContract({
        address: token,
        abi: testToken.abi,
        functionName: 'balanceOf',
        args: [account],
        blockNumber,
      })
    expect(await read(BOB)).toBe(250n)
    expect(await read(h.alice.address)).toBe(SUPPLY - 250n)
    expect(await read(BOB, deployBlock)).toBe(0n)
    expect(await read(h.alice.address, deployBlock)).toBe(SUPPLY)
  })

  test('reads native balances and nonces at latest, at genesis and by block hash', async () => {
    const genesisBalance = parseEther('10000')
    expect(await h.general.getBalance({ address: h.alice.address, blockNumber: 0n })).toBe(genesisBalance)
    const now = await h.general.getBalance({ address: h.alice.address })
    expect(now).toBeLessThan(genesisBalance)
    expect(await h.general.getTransactionCount({ address: h.alice.address })).toBe(2)
    expect(await h.general.getTransactionCount({ address: h.alice.address, blockNumber: deployBlock })).toBe(1)
    const block = await h.general.getBlock({ blockNumber: deployBlock })
    const byHash = await h.rpc('general', 'eth_getTransactionCount', [h.alice.address, { blockHash: block.hash }])
    expect(byHash.result).toBe('0x1')
    const earliest = await h.rpc('general', 'eth_getBalance', [h.alice.address, 'earliest'])
    expect(BigInt(earliest.result as string)).toBe(genesisBalance)
  })

  test('reads contract code and storage words', async () => {
    expect((await h.general.getCode({ address: token }))?.length).toBeGreaterThan(100)
    expect(await h.general.getCode({ address: token, blockNumber: 0n })).toBeUndefined()
    // slot 0 is totalSupply
    expect(await h.general.getStorageAt({ address: token, slot: '0x0' })).toBe(toHex(SUPPLY, { size: 32 }))
    const empty = await h.rpc('general', 'eth_getStorageAt', [CAROL, '0x0', 'latest'])
    expect(empty.result).toBe(`0x${'0'.repeat(64)}`)
  })

  test('serves a block by number, by hash, with hashes or full transactions', async () => {
    const block = await h.general.getBlock({ blockNumber: transferBlock, includeTransactions: true })
    // the L1-info deposit opens every block
    expect(block.transactions).toHaveLength(2)
    expect(block.transactions[0]!.from).toBe('0xdeaddeaddeaddeaddeaddeaddeaddeaddead0001')
    expect(block.transactions[1]!.hash).toBe(transferHash)
    expect(block.transactions[1]!.blockHash).toBe(block.hash)
    const byHash = await h.general.getBlock({ blockHash: block.hash })
    expect(byHash.transactions).toEqual([block.transactions[0]!.hash, transferHash])
    expect(byHash.number).toBe(transferBlock)
    const tagged = await h.rpc('general', 'eth_getBlockByNumber', ['finalized', false])
    expect((tagged.result as { hash: Hex }).hash).toBe(block.hash)
  })

  test("counts a block's transactions by number and by hash", async () => {
    const block = await h.general.getBlock({ blockNumber: transferBlock })
    expect(await h.general.getBlockTransactionCount({ blockNumber: transferBlock })).toBe(2)
    expect(await h.general.getBlockTransactionCount({ blockHash: block.hash })).toBe(2)
    expect(await h.general.getBlockTransactionCount({ blockNumber: 0n })).toBe(0)
  })

  test('finds a transaction by hash, by block and index, and its raw bytes', async () => {
    const tx = await h.general.getTransaction({ hash: transferHash })
    expect(tx.blockNumber).toBe(transferBlock)
    expect(tx.from).toBe(h.alice.address.toLowerCase())
    expect(tx.to).toBe(token)
    const byIndex = await h.general.getTransaction({ blockNumber: transferBlock, index: 1 })
    expect(byIndex.hash).toBe(transferHash)
    const byBlockHash = await h.general.getTransaction({ blockHash: tx.blockHash!, index: 1 })
    expect(byBlockHash.hash).toBe(transferHash)
    const alias = await h.rpc('general', 'eth_getTransactionbyBlockNumberAndIndex', [toHex(transferBlock), '0x1'])
    expect((alias.result as { hash: Hex }).hash).toBe(transferHash)
    const raw = await h.rpc('general', 'eth_getRawTransactionByHash', [transferHash])
    expect(raw.result).toMatch(/^0x02f8/)
  })

  test("answers a receipt in geth's shape, with the Transfer log", async () => {
    const receipt = (await h.rpc('general', 'eth_getTransactionReceipt', [transferHash])).result as Record<
      string,
      unknown
    >
    // geth's fields plus the OP Stack fee fields op-geth adds after Jovian
    expect(Object.keys(receipt).sort()).toEqual([
      'blobGasUsed',
      'blockHash',
      'blockNumber',
      'contractAddress',
      'cumulativeGasUsed',
      'daFootprintGasScalar',
      'effectiveGasPrice',
      'from',
      'gasUsed',
      'l1BaseFeeScalar',
      'l1BlobBaseFee',
      'l1BlobBaseFeeScalar',
      'l1Fee',
      'l1GasPrice',
      'l1GasUsed',
      'logs',
      'logsBloom',
      'operatorFeeConstant',
      'operatorFeeScalar',
      'status',
      'to',
      'transactionHash',
      'transactionIndex',
      'type',
    ])
    expect(receipt.status).toBe('0x1')
    expect(receipt.contractAddress).toBeNull()
    expect(receipt.type).toBe('0x2')
    const logs = receipt.logs as { address: Hex; logIndex: Hex; transactionHash: Hex; blockHash: Hex }[]
    expect(logs).toHaveLength(1)
    expect(logs[0]).toMatchObject({
      address: token,
      logIndex: '0x0',
      transactionHash: transferHash,
      blockHash: receipt.blockHash,
    })
    const viaViem = await h.general.getTransactionReceipt({ hash: transferHash })
    expect(viaViem.blockNumber).toBe(transferBlock)
    expect(viaViem.gasUsed).toBeGreaterThan(21_000n)
  })

  test('lists every receipt of a block, and a contract creation names its contract', async () => {
    const receipts = (await h.rpc('general', 'eth_getBlockReceipts', [toHex(deployBlock)])).result as {
      contractAddress: Hex
    }[]
    expect(receipts).toHaveLength(2)
    expect(receipts[1]!.contractAddress).toBe(token)
    expect((await h.rpc('general', 'eth_getBlockReceipts', ['0x0'])).result).toEqual([])
  })

  test('answers null for blocks and transactions it does not know', async () => {
    const far = toHex(transferBlock + 1000n)
    const unknownHash = `0x${'ab'.repeat(32)}`
    for (const [method, params] of [
      ['eth_getBlockByNumber', [far, false]],
      ['eth_getBlockByHash', [unknownHash, false]],
      ['eth_getBlockTransactionCountByNumber', [far]],
      ['eth_getBlockTransactionCountByHash', [unknownHash]],
      ['eth_getTransactionByHash', [unknownHash]],
      ['eth_getRawTransactionByHash', [unknownHash]],
      ['eth_getTransactionReceipt', [unknownHash]],
      ['eth_getTransactionByBlockHashAndIndex', [unknownHash, '0x0']],
      ['eth_getTransactionByBlockNumberAndIndex', [far, '0x0']],
      ['eth_getTransactionByBlockNumberAndIndex', [toHex(transferBlock), '0x5']],
      ['eth_getBlockReceipts', [far]],
    ] as const) {
      expect(await h.rpc('general', method, [...params]), method).toMatchObject({ result: null })
    }
  })

  test('refuses state reads at a block it does not know with `header not found`', async () => {
    const far = toHex(transferBlock + 1000n)
    const unknownHash = `0x${'ab'.repeat(32)}`
    for (const [method, params] of [
      ['eth_getBalance', [BOB, far]],
      ['eth_getTransactionCount', [BOB, far]],
      ['eth_getCode', [token, { blockHash: unknownHash }]],
      ['eth_getStorageAt', [token, '0x0', unknownHash]],
      ['eth_getBalance', [BOB, { blockNumber: far }]],
    ] as const) {
      expect(await h.rpc('general', method, [...params]), method).toMatchObject({
        error: { code: -32000, message: 'header not found' },
      })
    }
  })

  test('says it is not syncing', async () => {
    expect((await h.rpc('general', 'eth_syncing', [])).result).toBe(false)
    expect((await h.rpc('flashblocks', 'eth_syncing', [])).result).toBe(false)
  })

  test('shows waiting transactions in txpool_content, keyed by sender and nonce, until they are mined', async () => {
    const { nonce } = h.fees()
    // a nonce gap: the next one is queued, not pending
    const gapped = await h.wallet.sendTransaction({
      to: CAROL,
      value: 1n,
      gas: 21_000n,
      nonce: nonce + 1,
      maxFeePerGas: 10n ** 10n,
      maxPriorityFeePerGas: 10n ** 9n,
    })
    const ready = await h.wallet.sendTransaction({
      to: CAROL,
      value: 1n,
      gas: 21_000n,
      nonce,
      maxFeePerGas: 10n ** 10n,
      maxPriorityFeePerGas: 10n ** 9n,
    })
    h.fees() // the harness's counter skips the nonce used above
    const content = (await h.rpc('general', 'txpool_content', [])).result as {
      pending: Record<string, Record<string, { hash: Hex; blockHash: null }>>
      queued: Record<string, unknown>
    }
    const mine = content.pending[h.alice.address]!
    expect(Object.keys(mine)).toEqual([String(nonce), String(nonce + 1)])
    expect(mine[String(nonce)]).toMatchObject({ hash: ready, blockHash: null })
    expect(mine[String(nonce + 1)]!.hash).toBe(gapped)
    expect(content.queued).toEqual({})
    const waiting = await h.general.getTransaction({ hash: ready })
    expect(waiting.blockHash).toBeNull()
    await h.mine()
    expect((await h.rpc('general', 'txpool_content', [])).result).toEqual({ pending: {}, queued: {} })
  })
})
