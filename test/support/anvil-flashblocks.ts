/**
 * A sequencer's feed for anvil: with anvil in no-mining mode and its next block's timestamp pinned, anvil's
 * `pending` block (which executes the pool in the order anvil will mine it) gives what a sequencer puts in
 * a flashblock's `base`, and each flash() publishes, as the next index, the transactions that joined the
 * pool since the last one. When the test then mines, anvil's block is the one the flashblocks announced.
 * flashChild() publishes a block on top of the open one holding transactions anvil has not seen (a
 * sequencer ahead of its node), for reorg tests. Roots anvil cannot tell before mining are stand-ins:
 * `state_root` is unique per flashblock (a follower keys pending state by it), `block_hash` is anvil's
 * pending block hash.
 */
import { concat, type Hex, keccak256, numberToHex, toHex } from 'viem'
import { randomBytes } from 'node:crypto'
import type { FlashblocksPayload } from '../../src/feed/wire.js'
import { call } from './rpc.js'
import type { TestFeed } from './test-feed.js'

type WireBase = NonNullable<FlashblocksPayload['base']>

interface OpenBlock {
  number: bigint
  payloadId: Hex
  base: WireBase
  index: number
  /** transaction hashes published so far, in order */
  published: Hex[]
  /** the hash the flashblocks announce for this block (a child names it as its parent) */
  hash: Hex
}

interface AnvilBlock {
  number: Hex
  hash: Hex
  parentHash: Hex
  miner: Hex
  mixHash: Hex
  gasLimit: Hex
  gasUsed: Hex
  timestamp: Hex
  extraData: Hex
  baseFeePerGas: Hex
  parentBeaconBlockRoot?: Hex
  receiptsRoot: Hex
  logsBloom: Hex
  transactions: Hex[]
}

const ZERO_HASH: Hex = `0x${'00'.repeat(32)}`
const EMPTY_TRIE: Hex = '0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421'

export class AnvilFlashblocks {
  private open: OpenBlock | undefined

  constructor(
    private readonly anvilUrl: string,
    private readonly feed: TestFeed,
  ) {}

  /** The next block's timestamp (anvil would take its own clock's at mining time). */
  pinTimestamp(timestamp: bigint): Promise<unknown> {
    return call(this.anvilUrl, 'evm_setNextBlockTimestamp', [numberToHex(timestamp)])
  }

  /**
   * The transactions that joined anvil's pending block since the last flashblock, as the next flashblock;
   * published unless `publish` is false (a test that sends frames in its own order).
   */
  async flash({ publish = true } = {}): Promise<FlashblocksPayload> {
    const pending = await call<AnvilBlock>(this.anvilUrl, 'eth_getBlockByNumber', ['pending', false])
    const number = BigInt(pending.number)
    if (this.open?.number !== number) this.open = startBlock(pending)
    const open = this.open
    const prefix = pending.transactions.slice(0, open.published.length)
    if (prefix.join() !== open.published.join())
      throw new Error(`anvil reordered its pending block: ${prefix.join()} after publishing ${open.published.join()}`)
    const fresh = pending.transactions.slice(open.published.length)
    const raws = await Promise.all(fresh.map((h) => call<Hex>(this.anvilUrl, 'eth_getRawTransactionByHash', [h])))
    open.published.push(...fresh)
    const payload = this.payload(open, raws, {
      receipts_root: pending.receiptsRoot,
      logs_bloom: pending.logsBloom,
      gas_used: pending.gasUsed,
    })
    if (publish) this.feed.send(payload)
    return payload
  }

  /**
   * Index 0 of the block after the open one, holding `raws` (signed, not sent to anvil), with the base fee
   * given: the sequencer's next block while anvil has not mined the open one.
   */
  flashChild(raws: Hex[], baseFeePerGas: bigint, timestamp: bigint): FlashblocksPayload {
    const parent = this.open
    if (!parent) throw new Error('flashChild needs an open block: flash() first')
    const child: OpenBlock = {
      number: parent.number + 1n,
      payloadId: toHex(randomBytes(8)),
      base: {
        ...parent.base,
        parent_hash: parent.hash,
        block_number: numberToHex(parent.number + 1n),
        timestamp: numberToHex(timestamp),
        base_fee_per_gas: numberToHex(baseFeePerGas),
      },
      index: 0,
      published: raws.map((raw) => keccak256(raw)),
      hash: keccak256(concat([parent.hash, '0x01'])),
    }
    this.open = child
    const payload = this.payload(child, raws, {
      receipts_root: EMPTY_TRIE,
      logs_bloom: `0x${'00'.repeat(256)}`,
      gas_used: '0x0',
    })
    this.feed.send(payload)
    return payload
  }

  private payload(
    open: OpenBlock,
    raws: Hex[],
    cumulative: Pick<FlashblocksPayload['diff'], 'receipts_root' | 'logs_bloom' | 'gas_used'>,
  ): FlashblocksPayload {
    const index = open.index++
    return {
      payload_id: open.payloadId,
      index,
      ...(index === 0 ? { base: open.base } : {}),
      diff: {
        state_root: keccak256(concat([open.payloadId, numberToHex(index, { size: 4 })])),
        ...cumulative,
        block_hash: open.hash,
        transactions: raws,
        withdrawals: [],
        withdrawals_root: EMPTY_TRIE,
      },
      metadata: { block_number: Number(open.number), new_account_balances: {}, receipts: {} },
    }
  }
}

function startBlock(pending: AnvilBlock): OpenBlock {
  return {
    number: BigInt(pending.number),
    payloadId: toHex(randomBytes(8)),
    base: {
      parent_beacon_block_root: pending.parentBeaconBlockRoot ?? ZERO_HASH,
      parent_hash: pending.parentHash,
      fee_recipient: pending.miner,
      prev_randao: pending.mixHash,
      block_number: pending.number,
      gas_limit: pending.gasLimit,
      timestamp: pending.timestamp,
      extra_data: pending.extraData,
      base_fee_per_gas: pending.baseFeePerGas,
    },
    index: 0,
    published: [],
    hash: pending.hash,
  }
}
