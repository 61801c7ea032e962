/**
 * The dev-node methods act on the whole chain, flashblocks included: a snapshot holds the preconfirmed
 * state and the pool and a revert restores both (what `pending` on /flashblocks shows too), evm_mine seals
 * what the open block preconfirmed plus the pool, state edits reach `pending` at once and the next flashblock
 * builds on them, an impersonated transaction preconfirms like any other, and time travel moves the simulated
 * L1 origin. The chain has no timers here: flashblocks are built when the test says (chain.buildNow).
 */
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { keccak256, type Hex, hexToBytes, parseEther } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import type { Chain } from '../../src/chain/chain.js'
import { startService, type RunningService } from '../../src/service.js'
import { decodeFeedTx } from '../../src/follower/feed-txs.js'
import { BOB, CAROL, DEV_KEY_1 } from '../support/dev-keys.js'
import { call } from '../support/rpc.js'

const dev1 = privateKeyToAccount(DEV_KEY_1)
const X: Hex = '0x00000000000000000000000000000000000a11ce'
const L1_BLOCK = '0x4200000000000000000000000000000000000015'

let service: RunningService
let chain: Chain
let nonce: number
const general = (method: string, params: unknown[] = []) => call(service.url, method, params)
const flash = (method: string, params: unknown[] = []) => call(service.flashblocksUrl, method, params)

/** dev account 1 pays `value` to `to`, signed here (fees up front). */
async function send(to: Hex, value = 1n): Promise<Hex> {
  const raw = await dev1.signTransaction({
    chainId: 196,
    type: 'eip1559',
    to,
    value,
    nonce: nonce++,
    gas: 21_000n,
    maxFeePerGas: 10n ** 10n,
    maxPriorityFeePerGas: 10n ** 9n,
  })
  return general('eth_sendRawTransaction', [raw])
}

const pendingTxs = async () =>
  ((await flash('eth_getBlockByNumber', ['pending', false])) as { transactions: Hex[] }).transactions
const pooled = async () => Object.keys(((await general('txpool_content')) as { pending: object }).pending).length

beforeEach(async () => {
  service = await startService({ port: 0, quiet: true, rateLimit: 0, mining: false })
  chain = service.chain
  nonce = 0
})
afterEach(() => service?.close())

describe('a snapshot of a chain building flashblocks', () => {
  test('holds the preconfirmed state and the pool; a revert restores both, on /flashblocks too', async () => {
    const a = await send(BOB)
    await chain.buildNow() // A preconfirmed
    const b = await send(CAROL) // B waits in the pool
    await general('anvil_setBalance', [X, '0x64'])
    const id = await general('evm_snapshot')

    await chain.buildNow() // B preconfirmed
    const c = await send(BOB) // C waits in the pool
    await general('anvil_setBalance', [X, '0x0'])
    expect(await pendingTxs()).toEqual(expect.arrayContaining([a, b]))

    expect(await general('evm_revert', [id])).toBe(true)
    const pending = await pendingTxs()
    expect(pending).toContain(a)
    expect(pending).not.toContain(b)
    expect(await flash('eth_getTransactionReceipt', [a])).toMatchObject({ status: '0x1' })
    expect(await flash('eth_getTransactionReceipt', [c])).toBeNull()
    expect(await flash('eth_getBalance', [X, 'pending'])).toBe('0x64')
    expect(await general('eth_getBalance', [X, 'latest'])).toBe('0x64')
    // the pool is the snapshot's: B is back, C is gone, and B preconfirms again in the next flashblock
    const content = (await general('txpool_content')) as { pending: Record<string, Record<string, { hash: Hex }>> }
    expect(Object.values(content.pending).flatMap((byNonce) => Object.values(byNonce).map((tx) => tx.hash))).toEqual([
      b,
    ])
    await chain.buildNow()
    expect(await pendingTxs()).toEqual(expect.arrayContaining([a, b]))
    expect(await flash('eth_getTransactionCount', [dev1.address, 'pending'])).toBe('0x2')
  })

  test('a revert forgets the blocks sealed after it; the same id cannot be used twice', async () => {
    const id = await general('evm_snapshot')
    const a = await send(BOB)
    await chain.mine()
    await chain.mine()
    expect(await general('eth_blockNumber')).toBe('0x2')
    expect(await general('evm_revert', [id])).toBe(true)
    expect(await general('eth_blockNumber')).toBe('0x0')
    expect(await general('eth_getTransactionByHash', [a])).toBeNull()
    expect(await general('eth_getBalance', [BOB, 'latest'])).toBe(`0x${(10_000n * 10n ** 18n).toString(16)}`)
    expect(await general('evm_revert', [id])).toBe(false)
    // the chain goes on from there: the next block is number 1 again
    await chain.mine()
    expect(await general('eth_blockNumber')).toBe('0x1')
  })
})

describe('mining on demand', () => {
  test('evm_mine seals what the open block preconfirmed plus the pool', async () => {
    const a = await send(BOB)
    await chain.buildNow()
    const b = await send(CAROL)
    expect(await general('evm_mine')).toBe('0x0')
    const latest = (await general('eth_getBlockByNumber', ['latest', false])) as { number: Hex; transactions: Hex[] }
    expect(latest.number).toBe('0x1')
    expect(latest.transactions).toEqual(expect.arrayContaining([a, b]))
    expect(await pooled()).toBe(0)
  })

  test('anvil_mine seals several blocks, interval seconds apart', async () => {
    await general('evm_setNextBlockTimestamp', [4_000_000_000])
    await general('anvil_mine', ['0x3', '0xa'])
    const times = await Promise.all(
      ['0x1', '0x2', '0x3'].map(async (n) =>
        Number(((await general('eth_getBlockByNumber', [n, false])) as { timestamp: Hex }).timestamp),
      ),
    )
    expect(times[0]).toBeGreaterThanOrEqual(4_000_000_000)
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(10)
    expect(times[2]! - times[1]!).toBeGreaterThanOrEqual(10)
  })
})

describe('state edits, impersonation and time on a block being built', () => {
  test('an edit reaches `pending` and `latest` at once, and the next flashblock builds on it', async () => {
    await send(BOB)
    await chain.buildNow()
    await general('anvil_setBalance', [dev1.address, `0x${parseEther('5').toString(16)}`])
    expect(BigInt(await flash('eth_getBalance', [dev1.address, 'pending']))).toBe(parseEther('5'))
    expect(BigInt(await general('eth_getBalance', [dev1.address, 'latest']))).toBe(parseEther('5'))
    await send(CAROL, parseEther('1'))
    await chain.buildNow()
    const left = BigInt(await flash('eth_getBalance', [dev1.address, 'pending']))
    expect(left).toBeLessThan(parseEther('4'))
    expect(left).toBeGreaterThan(parseEther('3.99'))
  })

  test('an impersonated sender preconfirms like any other; its bytes name it to a follower', async () => {
    await general('anvil_setBalance', [X, `0x${parseEther('1').toString(16)}`])
    expect(await general('eth_sendTransaction', [{ from: X, to: BOB, value: '0x1' }]).catch((e) => e.message)).toMatch(
      /unknown account/,
    )
    await general('anvil_impersonateAccount', [X])
    expect(await general('eth_accounts')).toContain(X)
    const hash: Hex = await general('eth_sendTransaction', [{ from: X, to: BOB, value: '0x1' }])
    await chain.buildNow()
    expect(await flash('eth_getTransactionReceipt', [hash])).toMatchObject({ status: '0x1', from: X })
    const tx = await flash('eth_getTransactionByHash', [hash])
    expect(tx).toMatchObject({ from: X, r: X.replace(/0x0+/, '0x'), s: '0x1', yParity: '0x0' })
    const raw: Hex = await flash('eth_getRawTransactionByHash', [hash])
    expect(keccak256(raw)).toBe(hash)
    // what a follower does with the feed's bytes: the marker names the sender
    const record = decodeFeedTx(hexToBytes(raw), chain.common, undefined)
    expect(record.sender).toEqual(hexToBytes(X))
    // sent raw by anyone, the same bytes are no key of X's: admission never reads the marker
    await general('evm_mine')
    await general('anvil_stopImpersonatingAccount', [X])
    await expect(general('eth_sendRawTransaction', [raw])).rejects.toThrow(/invalid sender|insufficient funds/)
  })

  test('evm_increaseTime moves the simulated L1 origin of the next block', async () => {
    const l1Number = async () => BigInt(await flash('eth_call', [{ to: L1_BLOCK, data: '0x8381f58a' }, 'pending']))
    await chain.buildNow()
    const before = await l1Number()
    // the open block holds only its L1-info deposit: it opens again at the moved time
    await general('evm_increaseTime', [86_400])
    await chain.buildNow()
    const after = await l1Number()
    // a day of 12-second L1 blocks
    expect(after - before).toBeGreaterThanOrEqual(7_199n)
  })
})
