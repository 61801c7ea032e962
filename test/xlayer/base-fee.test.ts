/**
 * Headers and base fee as X Layer makes them, on a real service driven block by block (its timers set to an
 * hour; blocks come from chain.buildNow/sealNow only): every block's extraData carries the configured EIP-1559
 * parameters in Jovian's 17-byte form (sealed, pending, and the feed's `base`), and 50 blocks of varying
 * fullness follow op-reth's rule (okx/optimism 3349a7c rust/op-reth/crates/chainspec/src/basefee.rs): EIP-1559
 * with the parent's extraData parameters, on max(gasUsed, blobGasUsed) (Jovian's DA footprint), floored at the
 * parent's minBaseFee. The expected sequence is computed here from the blocks' own fields and the flags.
 */
import { once } from 'node:events'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { createPublicClient, createWalletClient, http, type PublicClient } from 'viem'
import WebSocket from 'ws'
import type { Chain } from '../../src/chain/chain.js'
import type { RunningService } from '../../src/service.js'
import { startFrozenService, viemChain } from '../support/harness.js'
import { BOB, devAccount } from '../support/dev-keys.js'

const DENOMINATOR = 8n
const ELASTICITY = 2n
const MIN_BASE_FEE = 80_000_000n
/** Room for the L1-info deposit's 1 000 000 gas limit; small, so burning a block's gas stays quick. */
const GAS_LIMIT = 1_500_000n
/** X Layer mainnet's genesis (okx/xlayer-reth b85080e res/genesis/xlayer-mainnet.json). */
const GENESIS_BASE_FEE = 0x5fc01c5n
const GENESIS_EXTRA_DATA = '0x00000000fa00000006'

const hex = (value: bigint, bytes: number) => value.toString(16).padStart(bytes * 2, '0')
/** Jovian's extraData: version 1, u32 denominator, u32 elasticity, u64 minBaseFee. */
const JOVIAN_EXTRA_DATA = `0x01${hex(DENOMINATOR, 4)}${hex(ELASTICITY, 4)}${hex(MIN_BASE_FEE, 8)}`

let service: RunningService
let chain: Chain
let general: PublicClient
let flash: PublicClient
let feed: WebSocket
const feedBases: { block_number: string; extra_data: string }[] = []

beforeAll(async () => {
  service = await startFrozenService({
    gasLimit: GAS_LIMIT,
    eip1559Denominator: DENOMINATOR,
    eip1559Elasticity: ELASTICITY,
    minBaseFee: MIN_BASE_FEE,
  })
  chain = service.chain as Chain
  general = createPublicClient({ chain: viemChain, transport: http(service.url) }) as PublicClient
  flash = createPublicClient({ chain: viemChain, transport: http(service.flashblocksUrl) }) as PublicClient
  feed = new WebSocket(`${service.wsUrl}ws/flashblocks`)
  feed.on('message', (data) => {
    const message = JSON.parse(String(data))
    if (message.base) feedBases.push(message.base)
  })
  await once(feed, 'open')
})

afterAll(async () => {
  feed?.close()
  await service?.close()
})

/** op-reth's rule, written out: the base fee of the block after `parent`. */
function expectedNext(
  parent: { gasUsed: bigint; blobGasUsed: bigint; gasLimit: bigint; baseFeePerGas: bigint },
  genesis: boolean,
) {
  // the genesis carries Holocene's (250, 6) and no floor; every block after carries the flags'
  const [denominator, elasticity, floor] = genesis ? [250n, 6n, 0n] : [DENOMINATOR, ELASTICITY, MIN_BASE_FEE]
  const metered = parent.blobGasUsed > parent.gasUsed ? parent.blobGasUsed : parent.gasUsed
  const target = parent.gasLimit / elasticity
  const base = parent.baseFeePerGas
  let next: bigint
  if (metered === target) next = base
  else if (metered > target) {
    const delta = (base * (metered - target)) / target / denominator
    next = base + (delta > 1n ? delta : 1n)
  } else {
    const delta = (base * (target - metered)) / target / denominator
    next = base > delta ? base - delta : 0n
  }
  return next < floor ? floor : next
}

test('50 blocks of varying fullness follow the extraData rule with the DA footprint and the minBaseFee floor', async () => {
  const wallet = createWalletClient({ account: devAccount, chain: viemChain, transport: http(service.url) })
  let nonce = 0
  const fees = () => ({ nonce: nonce++, maxFeePerGas: 10n ** 10n, maxPriorityFeePerGas: 10n ** 6n })
  // init code that loops until out of gas: a failed creation using its whole gas limit
  const burn = (gas: bigint) => wallet.sendTransaction({ data: '0x5b600056', gas, ...fees() })
  const transfers = async (n: number) => {
    for (let i = 0; i < n; i++) await wallet.sendTransaction({ to: BOB, value: 1n, gas: 21_000n, ...fees() })
  }
  const fill = [
    async () => {}, // empty: only the L1-info deposit
    () => burn(1_350_000n), // far over the target
    () => burn(700_000n), // about the target
    () => transfers(20), // little gas, a DA footprint (20 × 100 bytes × 400) over the target
    () => burn(250_000n),
    async () => {},
    async () => {},
  ]
  const genesis = await general.getBlock({ blockNumber: 0n })
  expect(genesis.extraData).toBe(GENESIS_EXTRA_DATA)
  expect(genesis.baseFeePerGas).toBe(GENESIS_BASE_FEE)

  for (let i = 0; i < 50; i++) {
    await fill[(i * 3) % fill.length]!()
    await chain.buildNow()
    const pending = await flash.getBlock({ blockTag: 'pending' })
    expect(pending.extraData).toBe(JOVIAN_EXTRA_DATA)
    const sealed = await chain.sealNow()
    expect(sealed.number).toBe(BigInt(i + 1))
  }

  const blocks = await Promise.all(Array.from({ length: 51 }, (_, n) => general.getBlock({ blockNumber: BigInt(n) })))
  const fees50 = blocks.slice(1).map((b) => b.baseFeePerGas!)
  const expected = blocks.slice(0, 50).map((parent, n) =>
    expectedNext(
      {
        gasUsed: parent.gasUsed,
        blobGasUsed: parent.blobGasUsed,
        gasLimit: parent.gasLimit,
        baseFeePerGas: parent.baseFeePerGas!,
      },
      n === 0,
    ),
  )
  expect(fees50).toEqual(expected)
  for (const block of blocks.slice(1)) expect(block.extraData).toBe(JOVIAN_EXTRA_DATA)
  // every rule had its turn: rises, falls, the floor, and blocks whose DA footprint outweighs their gas
  const rises = fees50.filter((fee, n) => fee > (n === 0 ? GENESIS_BASE_FEE : fees50[n - 1]!)).length
  expect(rises).toBeGreaterThan(5)
  expect(fees50.filter((fee) => fee === MIN_BASE_FEE).length).toBeGreaterThan(2)
  const daBound = blocks.slice(1, 50).filter((b) => b.blobGasUsed > b.gasUsed && b.blobGasUsed > GAS_LIMIT / ELASTICITY)
  expect(daBound.length).toBeGreaterThan(3)

  // the feed's base of each block carried the same extraData (block 1 opened at start, before the client joined)
  expect(feedBases.map((b) => Number(b.block_number)).slice(-49)).toEqual(Array.from({ length: 49 }, (_, n) => n + 2))
  for (const base of feedBases) expect(base.extra_data).toBe(JOVIAN_EXTRA_DATA)

  // the fee methods follow: the next base fee after the newest block is the formula's
  const newest = blocks[50]!
  const next = expectedNext(
    {
      gasUsed: newest.gasUsed,
      blobGasUsed: newest.blobGasUsed,
      gasLimit: newest.gasLimit,
      baseFeePerGas: newest.baseFeePerGas!,
    },
    false,
  )
  const history = await general.getFeeHistory({ blockCount: 4, rewardPercentiles: [] })
  expect(history.baseFeePerGas.at(-1)).toBe(next)
  expect(history.baseFeePerGas.slice(0, 4)).toEqual(fees50.slice(-4))
  const [gasPrice, tip] = await Promise.all([general.getGasPrice(), general.estimateMaxPriorityFeePerGas()])
  expect(gasPrice - tip).toBe(next)
}, 180_000) // fifty blocks of real execution: a budget for a busy machine, not a speed check
