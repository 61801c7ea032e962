/**
 * With --data-dir a block older than the ones kept decoded is read from LevelDB (DiskHistory.read), its senders
 * beside it and its transactions built only when asked for: every answer about it is the one it had while it
 * was among the newest, for every transaction type the chain runs, and again after a restart.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { bytesToHex, hexToBytes } from '@ethereumjs/util'
import { encodeDeployData, encodeFunctionData, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, afterEach, expect, test } from 'vitest'
import { decodeTransaction } from '../../src/chain/pool/admission.js'
import { DISK_RECENT_BLOCKS_CACHED } from '../../src/limits.js'
import { type RunningService, startService } from '../../src/service.js'
import { BOB, DEV_KEY_1, DEV_KEY_2 } from '../support/dev-keys.js'
import { TRANSFER_TOPIC, testToken } from '../support/fixtures.js'
import { withPaddedChainId } from '../support/padded-integer.js'
import { call } from '../support/rpc.js'

const dir = mkdtempSync(join(tmpdir(), 'preconf-old-blocks-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
const options = { port: 0, quiet: true, rateLimit: 0, mining: false, dataDir: dir }

let service: RunningService | undefined
afterEach(() => service?.close())
const general = (method: string, params: unknown[] = []) => call(service!.url, method, params)

const dev1 = privateKeyToAccount(DEV_KEY_1)
const authority = privateKeyToAccount(DEV_KEY_2)
const X: Hex = '0x00000000000000000000000000000000000a11ce'
const fees = { chainId: 196, maxFeePerGas: 10n ** 10n, maxPriorityFeePerGas: 10n ** 9n }

/** Everything a client reads of block `number`, its transactions and its logs. */
async function readBlock(number: Hex) {
  const block = await general('eth_getBlockByNumber', [number, true])
  const byHash = await general('eth_getBlockByHash', [block.hash, false])
  const receipts = await general('eth_getBlockReceipts', [number])
  const logs = await general('eth_getLogs', [{ fromBlock: number, toBlock: number }])
  const txs = await Promise.all(
    (block.transactions as { hash: Hex }[]).map(async ({ hash }, i) => ({
      tx: await general('eth_getTransactionByHash', [hash]),
      inBlock: await general('eth_getTransactionByBlockNumberAndIndex', [number, `0x${i.toString(16)}`]),
      raw: await general('eth_getRawTransactionByHash', [hash]),
      receipt: await general('eth_getTransactionReceipt', [hash]),
    })),
  )
  return { block, byHash, receipts, logs, txs }
}

test('an old block, its transactions of every type, receipts and logs read back from disk as they were sealed', async () => {
  service = await startService(options)
  await general('anvil_setBalance', [X, '0xde0b6b3a7640000'])
  await general('anvil_impersonateAccount', [X])
  const impersonated: Hex = await general('eth_sendTransaction', [{ from: X, to: BOB, value: '0x1' }])
  const authorization = await authority.signAuthorization({ address: BOB, chainId: 196, nonce: 0 })
  const deployData = encodeDeployData({ abi: testToken.abi, bytecode: testToken.bytecode, args: [1_000_000n] })
  const signed = [
    await dev1.signTransaction({
      type: 'legacy',
      chainId: 196,
      nonce: 0,
      gas: 3_000_000n,
      gasPrice: 10n ** 10n,
      data: deployData,
    }),
    await dev1.signTransaction({
      type: 'eip2930',
      chainId: 196,
      nonce: 1,
      to: BOB,
      gas: 60_000n,
      gasPrice: 10n ** 10n,
      value: 2n,
      accessList: [{ address: BOB, storageKeys: [] }],
    }),
    await dev1.signTransaction({ type: 'eip1559', ...fees, nonce: 2, to: BOB, gas: 60_000n, value: 3n, data: '0x01' }),
    await dev1.signTransaction({
      type: 'eip7702',
      ...fees,
      nonce: 3,
      to: authority.address,
      gas: 100_000n,
      authorizationList: [authorization],
    }),
    bytesToHex(
      withPaddedChainId(
        hexToBytes(
          await dev1.signTransaction({ type: 'eip1559', ...fees, nonce: 4, to: BOB, gas: 21_000n, value: 4n }),
        ),
      ),
    ),
  ]
  const hashes: Hex[] = []
  for (const raw of signed.slice(0, -1)) hashes.push(await general('eth_sendRawTransaction', [raw]))
  // the padded chain id is refused at eth_sendRawTransaction now; a data directory written before that holds
  // one, so it goes in below the client's door, into the pool as admission decodes it
  const { pool, common } = service.chain
  hashes.push(bytesToHex(await pool.admit(decodeTransaction(hexToBytes(signed[4]!), common))) as Hex)
  await general('evm_mine')
  const number: Hex = (await general('eth_getTransactionReceipt', [hashes[0]])).blockNumber
  // the token's constructor minted to dev1: a Transfer log, and a contract address
  const deployed = await general('eth_getTransactionReceipt', [hashes[0]])
  expect(deployed.contractAddress).toMatch(/^0x[0-9a-f]{40}$/)
  await general('eth_sendRawTransaction', [
    await dev1.signTransaction({
      type: 'eip1559',
      ...fees,
      nonce: 5,
      to: deployed.contractAddress,
      gas: 100_000n,
      data: encodeFunctionData({ abi: testToken.abi, functionName: 'transfer', args: [BOB, 5n] }),
    }),
  ])
  await general('evm_mine')

  const fresh = await readBlock(number)
  const byHash = new Map(fresh.txs.map((t) => [t.tx.hash as Hex, t]))
  expect([...byHash.keys()].sort()).toEqual([fresh.block.transactions[0].hash, impersonated, ...hashes].sort())
  expect(fresh.txs.map(({ receipt }) => receipt.type).sort()).toEqual([
    '0x0',
    '0x1',
    '0x2',
    '0x2',
    '0x2',
    '0x4',
    '0x7e',
  ])
  expect(fresh.txs.every(({ receipt }) => receipt.status === '0x1')).toBe(true)
  expect(byHash.get(impersonated)!.tx.from).toBe(X)
  expect(fresh.logs.some((l: { topics: Hex[] }) => l.topics[0] === TRANSFER_TOPIC)).toBe(true)
  // the padded chain id's bytes are kept as sent; its hash is @ethereumjs's (of the minimal encoding)
  expect(byHash.get(hashes[4]!)!.raw).toBe(signed[4])
  const later = await readBlock(`0x${(BigInt(number) + 1n).toString(16)}`)

  await general('anvil_mine', [`0x${(DISK_RECENT_BLOCKS_CACHED + 8).toString(16)}`])
  expect(await readBlock(number)).toEqual(fresh)
  expect(await readBlock(later.block.number)).toEqual(later)
  await service.close()
  service = await startService(options)
  expect(await readBlock(number)).toEqual(fresh)
  expect(await readBlock(later.block.number)).toEqual(later)
}, 120_000)
