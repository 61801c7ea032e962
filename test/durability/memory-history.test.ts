/**
 * Without --data-dir the chain keeps its old blocks packed as bytes (src/chain/store.ts): a block, its
 * transactions and receipts read back the same once it is older than the blocks kept decoded, an
 * impersonated sender and a deposit's nonce included, and evm_revert across packed blocks still works.
 */
import { type Hex, parseEther } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterEach, beforeEach, expect, test } from 'vitest'
import { MEMORY_RECENT_BLOCKS } from '../../src/limits.js'
import { type RunningService, startService } from '../../src/service.js'
import { BOB, DEV_KEY_1 } from '../support/dev-keys.js'
import { call } from '../support/rpc.js'

const dev1 = privateKeyToAccount(DEV_KEY_1)
const X: Hex = '0x00000000000000000000000000000000000a11ce'

let service: RunningService
const general = (method: string, params: unknown[] = []) => call(service.url, method, params)

beforeEach(async () => {
  service = await startService({ port: 0, quiet: true, rateLimit: 0, mining: false })
})
afterEach(() => service?.close())

/** Everything a client reads of block `number` and its transactions. */
async function readBlock(number: Hex) {
  const block = await general('eth_getBlockByNumber', [number, true])
  const byHash = await general('eth_getBlockByHash', [block.hash, false])
  const receipts = await general('eth_getBlockReceipts', [number])
  const txs = await Promise.all(
    (block.transactions as { hash: Hex }[]).map(async ({ hash }) => ({
      tx: await general('eth_getTransactionByHash', [hash]),
      raw: await general('eth_getRawTransactionByHash', [hash]),
      receipt: await general('eth_getTransactionReceipt', [hash]),
    })),
  )
  return { block, byHash, receipts, txs }
}

test('a block older than the ones kept decoded reads back the same, and a revert across it still works', async () => {
  await general('anvil_setBalance', [X, `0x${parseEther('1').toString(16)}`])
  await general('anvil_impersonateAccount', [X])
  const impersonated: Hex = await general('eth_sendTransaction', [{ from: X, to: BOB, value: '0x1' }])
  const signed = await dev1.signTransaction({
    chainId: 196,
    type: 'eip1559',
    to: BOB,
    value: 2n,
    nonce: 0,
    gas: 21_000n,
    maxFeePerGas: 10n ** 10n,
    maxPriorityFeePerGas: 10n ** 9n,
  })
  const sent: Hex = await general('eth_sendRawTransaction', [signed])
  await general('evm_mine')
  const number: Hex = (await general('eth_getTransactionReceipt', [sent])).blockNumber
  expect((await general('eth_getTransactionReceipt', [impersonated])).blockNumber).toBe(number)
  const fresh = await readBlock(number)
  expect(fresh.txs.map(({ tx }) => tx.from)).toEqual([
    expect.any(String), // the L1-info deposit
    X,
    dev1.address.toLowerCase(),
  ])
  expect(fresh.txs[0]!.receipt.depositNonce).toMatch(/^0x/)

  const snapshot = await general('evm_snapshot')
  await general('anvil_mine', [`0x${(MEMORY_RECENT_BLOCKS + 8).toString(16)}`])
  expect(await readBlock(number)).toEqual(fresh)
  // a block packed and read back is the parent of nothing new: reverting to it re-opens on it
  const packedTip = BigInt(await general('eth_blockNumber'))
  await general('evm_revert', [snapshot])
  expect(BigInt(await general('eth_blockNumber'))).toBeLessThan(packedTip)
  expect(await readBlock(number)).toEqual(fresh)
  await general('evm_mine')
  expect(BigInt(await general('eth_blockNumber'))).toBe(BigInt(number) + 1n)
}, 120_000)
