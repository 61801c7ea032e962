/**
 * A stored block's receipts answer the JSON they answered when sealed, in both layouts a block can be stored
 * in: the one before session 14 (each receipt's OP fees as named pairs, test/support/named-fees-codec.ts) and
 * the current one (the block's fee set once, a receipt's own fees by position, a full set where it has its own).
 */
import { RLP } from '@ethereumjs/rlp'
import { bytesToBigInt, hexToBytes } from '@ethereumjs/util'
import { encodeDeployData, encodeFunctionData } from 'viem'
import { expect, test } from 'vitest'
import { TRANSFER_TOPIC, testToken } from '../../../test/support/fixtures.js'
import { encodeNamedFeesBlock, packNamedFeesBlock } from '../../../test/support/named-fees-codec.js'
import { scratchChains } from '../../../test/support/scratch-chain.js'
import { signTx } from '../../../test/support/sign-tx.js'
import type { OpReceiptFees } from '../../domain/op-fee-params.js'
import type { BlockRecord, ReceiptRecord } from '../../domain/types.js'
import { opReceiptFromJson } from '../../format/op-receipt.js'
import { formatReceipt } from '../../format/receipt.js'
import { DEFAULT_L1_SETTINGS } from '../../opstack/l1-origin.js'
import { operatorFee } from '../../opstack/operator-fee.js'
import type { Chain } from '../chain.js'
import { decodeBlock, encodeBlock, packBlock, unpackBlock } from './codec.js'
import { META_KEY, blockKey } from './keys.js'

const chains = scratchChains('preconf-codec-')

/** Every receipt of `block` as the service answers it, one JSON text each. */
const answered = (block: BlockRecord) => block.txs.map((_, i) => JSON.stringify(formatReceipt(block, i)))

/** Two blocks: the L1-attributes deposit, then a legacy deployment, an EIP-2930 transfer and EIP-1559 token calls (logs). */
async function blocksOfEveryKind(c: Chain): Promise<BlockRecord[]> {
  const deploy = encodeDeployData({ abi: testToken.abi, bytecode: testToken.bytecode, args: [1_000_000n] })
  await c.sendRawTransaction(
    await signTx(c, 0, { type: 'legacy', nonce: 0, to: null, gas: 3_000_000n, data: hexToBytes(deploy) }),
  )
  await c.sendRawTransaction(await signTx(c, 1, { type: 'eip2930', nonce: 0, value: 2n }))
  const first = await c.mine()
  const token = first.receipts[1]!.contractAddress!
  const transfer = encodeFunctionData({
    abi: testToken.abi,
    functionName: 'transfer',
    args: [TRANSFER_TOPIC.slice(0, 42) as `0x${string}`, 5n],
  })
  for (let nonce = 1; nonce < 4; nonce++)
    await c.sendRawTransaction(await signTx(c, 0, { nonce, to: token, gas: 100_000n, data: hexToBytes(transfer) }))
  await c.sendRawTransaction(await signTx(c, 2, { nonce: 0, value: 7n }))
  return [first, await c.mine()]
}

/** `block` with its receipts replaced (one per transaction), as a follower or another fork would have made them. */
function withReceipts(block: BlockRecord, receipts: ReceiptRecord[]): BlockRecord {
  return { ...block, receipts }
}

function roundTrips(block: BlockRecord, common: Chain['common']) {
  const json = answered(block)
  for (const read of [decodeBlock(encodeBlock(block), common), unpackBlock(packBlock(block), common)]) {
    expect(read.receipts).toEqual(block.receipts)
    expect(answered(read)).toEqual(json)
  }
}

test('receipts of every kind the chain seals read back as sealed, from the disk form and the packed history', async () => {
  const c = await chains.open()
  const blocks = await blocksOfEveryKind(c)
  const [first, second] = blocks
  expect(first!.receipts[0]!.depositNonce).toBeDefined()
  expect(second!.receipts[1]!.logs.length).toBe(1)
  expect(second!.receipts.slice(1).every((r) => r.op && r.op.l1Fee > 0n)).toBe(true)
  for (const block of blocks) roundTrips(block, c.common)
})

test("a transfer's receipt stores its fees without the block's set: ~200 bytes fewer than by name", async () => {
  const c = await chains.open()
  await c.sendRawTransaction(await signTx(c, 0, { nonce: 0, value: 1n }))
  const block = await c.mine()
  const saved = packNamedFeesBlock(block).length - packBlock(block).length
  // the 11 names (~142 bytes) and their pairs' headers, less the block's set stored once
  expect(saved).toBeGreaterThan(150)
})

test("a stored block's receipts field holds the layout, the block's fee values in format 3's order, then each receipt's own", async () => {
  // seven different values, so that two places swapped show
  const l1Settings = { ...DEFAULT_L1_SETTINGS, blobBaseFee: 2n, operatorFeeScalar: 3n, operatorFeeConstant: 1_000n }
  const c = await chains.open({ l1Settings })
  await c.sendRawTransaction(await signTx(c, 0, { nonce: 0, value: 1n }))
  const block = await c.mine()
  const op = block.receipts[1]!.op!
  const [, , stored] = RLP.decode(encodeBlock(block)) as Uint8Array[][][]
  const values = (list: Uint8Array[]) => list.map((b) => bytesToBigInt(b))
  // directories written since format 3 hold this order: encoder and decoder agreeing is not enough
  expect(stored![0]).toEqual(Uint8Array.of(1))
  const inOrder = [
    op.l1BaseFee,
    op.blobBaseFee,
    op.baseFeeScalar,
    op.blobBaseFeeScalar,
    op.operatorFeeScalar,
    op.operatorFeeConstant,
    op.daFootprintGasScalar,
  ]
  expect(new Set(inOrder).size).toBe(7)
  expect(values(stored![1] as unknown as Uint8Array[])).toEqual(inOrder)
  const transfer = (stored![2] as unknown as Uint8Array[][][])[1]!
  expect(values(transfer[9]!)).toEqual([op.l1Fee, op.l1GasUsed, op.daFootprint])
})

test('receipts whose fees are their own (a follower upstream, a gasless transaction, none) read back as given', async () => {
  const c = await chains.open()
  const [first, second] = await blocksOfEveryKind(c)
  const users = second!.receipts.slice(1)
  // the chain's own fees with an operator fee charged: the block's set
  const charged = { ...users[0]!.op!, operatorFeeScalar: 3n, operatorFeeConstant: 16n }
  const upstream = (r: ReceiptRecord, extra: Record<string, string>) =>
    opReceiptFromJson({ l1Fee: '0x5af3107a4000', l1GasUsed: '0x640', l1GasPrice: '0x3b9aca00', ...extra }, r.gasUsed)
  const own: OpReceiptFees[] = [
    { ...charged, operatorFee: operatorFee(users[0]!.gasUsed, charged) },
    // gasless (X Layer): the block's set, but no operator fee charged
    { ...charged, l1Fee: 9n, operatorFee: 0n },
    // an upstream before Isthmus: no operator or DA fields
    upstream(users[2]!, { l1BaseFeeScalar: '0x1', l1BlobBaseFee: '0x1', l1BlobBaseFeeScalar: '0x2' })!,
    // an upstream after Jovian, its L1 base fee other than the block's set
    upstream(users[3]!, {
      l1GasPrice: '0x3b9aca07',
      operatorFeeScalar: '0x3',
      operatorFeeConstant: '0x10',
      daFootprintGasScalar: '0x190',
      blobGasUsed: '0x2710',
    })!,
  ]
  const receipts = [second!.receipts[0]!, ...users.map((r, i) => ({ ...r, op: own[i] }) as ReceiptRecord)]
  // and a pre-Byzantium root and blob fields, which a follower of such a chain keeps
  receipts[4] = { ...receipts[4]!, root: new Uint8Array(32).fill(7), blobGasUsed: 131072n, blobGasPrice: 1n }
  roundTrips(withReceipts(second!, receipts), c.common)
  // a chain without OP fees (--no-op-fees)
  roundTrips(
    withReceipts(
      first!,
      first!.receipts.map(({ op: _, ...r }) => r),
    ),
    c.common,
  )
})

test('blocks a data directory stored before receipts stored fees by block read back as they were answered', async () => {
  const dataDir = chains.dataDir()
  let c = await chains.open({ dataDir })
  const blocks = await blocksOfEveryKind(c)
  await c.mine()
  const expected = blocks.map(answered)
  // as the encoder before session 14 wrote them, in a directory of data format 2
  const db = c.persistence!.db
  for (const block of blocks) await db.put(blockKey(block.number), encodeNamedFeesBlock(block))
  await db.put(META_KEY, new TextEncoder().encode(JSON.stringify({ version: 2, chainId: Number(c.chainId) })))
  c = await chains.reopen({ dataDir })
  // marked 3 now that blocks of the new layout are written to it: a version reading only 2 refuses it
  expect(JSON.parse(new TextDecoder().decode(c.persistence!.db.getSync(META_KEY)))).toMatchObject({ version: 3 })
  const read = blocks.map((b) => c.store.byNumber(b.number)!)
  expect(read.map(answered)).toEqual(expected)
  expect(read.map((b) => b.receipts)).toEqual(blocks.map((b) => b.receipts))
})

test('blocks the in-memory history packed as before read back as sealed', async () => {
  const c = await chains.open()
  for (const block of await blocksOfEveryKind(c)) {
    const read = unpackBlock(packNamedFeesBlock(block), c.common)
    expect(read.receipts).toEqual(block.receipts)
    expect(answered(read)).toEqual(answered(block))
  }
})
