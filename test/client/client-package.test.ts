/**
 * `preconf-rpc/client` as a user gets it: the package export built by `npm run build:client` and imported
 * by name from a plain node process, and the viem chain that makes `pending` the default.
 */
import { execFile } from 'node:child_process'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { createPublicClient, createWalletClient, http, parseEther } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { preconfRpcChain, xLayerPreconf, xLayerTestnetPreconf } from '../../src/client/index.js'
import { startService, type RunningService } from '../../src/service.js'
import { BOB, DEV_KEY_0 } from '../support/dev-keys.js'

const run = promisify(execFile)
const root = join(import.meta.dirname, '..', '..')

describe('the client package', () => {
  let service: RunningService

  beforeAll(async () => {
    // blocks every hour, flashblocks every 200 ms: a receipt seen before sealing is a preconfirmation, however
    // slowly a busy machine runs the test
    service = await startService({
      port: 0,
      quiet: true,
      rateLimit: 0,
      blockTimeMs: 3_600_000,
      flashblockIntervalMs: 200,
    })
    await run(
      process.execPath,
      [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.client.json'],
      { cwd: root },
    )
  })
  afterAll(() => service?.close())

  test('a plain node program imports the typed client as preconf-rpc/client and calls both endpoints', async () => {
    const program = `
      import { createHttpClient, RpcResponseError, preconfRpcChain } from 'preconf-rpc/client'
      const general = createHttpClient(${JSON.stringify(service.url)})
      const flash = createHttpClient(${JSON.stringify(service.flashblocksUrl)})
      const chainId = await flash.eth_chainId()
      const block = await general.eth_getBlockByNumber('0x0', false)
      const refused = await flash.eth_getBalance('0x1234', 'pending').catch((e) => e instanceof RpcResponseError && e.code)
      console.log(JSON.stringify({ chainId, genesis: block.number, refused, chain: preconfRpcChain(${JSON.stringify(service.url)}).rpcUrls.default.http[0] }))
    `
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', program], { cwd: root })
    expect(JSON.parse(stdout)).toEqual({
      chainId: '0xc4',
      genesis: '0x0',
      refused: -32602,
      chain: `${service.url}flashblocks`,
    })
  })

  test('the X Layer chains carry chain ids 196 and 1952 and a 200 ms preconfirmation time', () => {
    expect([xLayerPreconf.id, xLayerTestnetPreconf.id]).toEqual([196, 1952])
    expect(xLayerPreconf.experimental_preconfirmationTime).toBe(200)
    expect(xLayerTestnetPreconf.experimental_preconfirmationTime).toBe(200)
    expect(xLayerPreconf.rpcUrls.default.http[0]).toBe('https://rpc.xlayer.tech/flashblocks')
  })

  test('viem on the preconf chain gets a receipt and reads pending state long before the block is sealed', async () => {
    const chain = preconfRpcChain(service.url)
    const wallet = createWalletClient({ account: privateKeyToAccount(DEV_KEY_0), chain, transport: http() })
    const reader = createPublicClient({ chain, transport: http() })
    const canonical = createPublicClient({ transport: http(service.url) })
    const before = await canonical.getBalance({ address: BOB })

    const receipt = await wallet.sendTransactionSync({ to: BOB, value: parseEther('1') })

    expect(receipt.status).toBe('success')
    // no blockTag given: the chain makes viem read `pending`, the newest flashblock
    expect(await reader.getBalance({ address: BOB })).toBe(before + parseEther('1'))
    expect(await canonical.getBalance({ address: BOB })).toBe(before)
    expect(await canonical.getTransactionReceipt({ hash: receipt.transactionHash }).catch(() => null)).toBeNull()
  })
})
