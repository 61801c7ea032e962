import {
  type Hex,
  type TransactionSerializableEIP1559,
  createWalletClient,
  encodeFunctionData,
  http,
  parseEther,
  parseTransaction,
  toHex,
} from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { nextBaseFee } from '../../src/opstack/base-fee.js'
import { BOB, CAROL, DEV_KEY_2 } from '../support/dev-keys.js'
import { testToken } from '../support/fixtures.js'
import { type Harness, startHarness, viemChain } from '../support/harness.js'

const TIP = 10n ** 9n

type Filled = { raw: Hex; tx: Record<string, unknown> }

/** eth_fillTransaction: what eth_sendTransaction fills, unsigned, for viem's prepareTransactionRequest and signers. */
describe('eth_fillTransaction', () => {
  let h: Harness

  beforeAll(async () => {
    h = await startHarness()
  })
  afterAll(() => h?.close())

  const fill = async (request: Record<string, unknown>, endpoint: 'general' | 'flashblocks' = 'general') => {
    const reply = await h.rpc(endpoint, 'eth_fillTransaction', [request])
    if (reply.error) throw new Error(`${reply.error.code} ${reply.error.message}`)
    return reply.result as Filled
  }

  test('fills nonce, fees, gas and chain id of a transfer as eth_sendTransaction would, with raw bytes that say the same', async () => {
    const tip = BigInt((await h.rpc('general', 'eth_maxPriorityFeePerGas', [])).result as string)
    const { raw, tx } = await fill({ from: CAROL, to: BOB, value: toHex(parseEther('1')) })
    const fee = 2n * nextBaseFee(h.chain.store.latest().header) + tip
    expect(tx).toEqual({
      type: '0x2',
      from: CAROL,
      to: BOB,
      nonce: '0x0',
      gas: toHex(21_000),
      value: toHex(parseEther('1')),
      input: '0x',
      gasPrice: toHex(fee),
      maxFeePerGas: toHex(fee),
      maxPriorityFeePerGas: toHex(tip),
      accessList: [],
      chainId: toHex(196),
    })
    const decoded = parseTransaction(raw) as TransactionSerializableEIP1559 & { r?: Hex; s?: Hex }
    expect(decoded).toMatchObject({
      type: 'eip1559',
      chainId: 196,
      to: BOB,
      value: parseEther('1'),
      gas: 21_000n,
      maxFeePerGas: fee,
      maxPriorityFeePerGas: tip,
    })
    // no signature: geth and reth encode the unsigned transaction with v = r = s = 0
    expect([BigInt(decoded.r!), BigInt(decoded.s!)]).toEqual([0n, 0n])
  })

  test('keeps the fields a request gives and makes a legacy transaction of a gasPrice', async () => {
    const { tx } = await fill({ from: CAROL, to: BOB, gasPrice: toHex(3n * 10n ** 9n), gas: '0x7530', nonce: '0x9' })
    expect(tx).toMatchObject({ type: '0x0', gasPrice: toHex(3n * 10n ** 9n), gas: '0x7530', nonce: '0x9' })
    expect(tx).not.toHaveProperty('maxFeePerGas')
  })

  test('numbers the nonce after transactions waiting in the pool', async () => {
    const account = privateKeyToAccount(DEV_KEY_2)
    const wallet = createWalletClient({ account, chain: viemChain, transport: http(h.service.url) })
    await wallet.sendTransaction({
      to: BOB,
      value: 1n,
      nonce: 0,
      gas: 21_000n,
      maxFeePerGas: 10n ** 10n,
      maxPriorityFeePerGas: TIP,
    })
    for (const endpoint of ['general', 'flashblocks'] as const) {
      expect((await fill({ from: account.address, to: BOB }, endpoint)).tx.nonce).toBe('0x1')
    }
    await h.mine()
  })

  test("lets viem's wallet client prepare a local account's transaction in one request, which then mines", async () => {
    const account = privateKeyToAccount(DEV_KEY_2)
    const methods: string[] = []
    const transport = http(h.service.url, {
      onFetchRequest: async (request) => {
        methods.push(...[(await request.clone().json()) as { method: string }].flat().map((r) => r.method))
      },
    })
    const wallet = createWalletClient({ account, chain: viemChain, transport })
    const hash = await wallet.sendTransaction({ to: BOB, value: 7n })
    expect(methods).toContain('eth_fillTransaction')
    expect(methods).not.toContain('eth_estimateGas')
    expect(methods).not.toContain('eth_getTransactionCount')
    await h.mine()
    const receipt = await h.general.getTransactionReceipt({ hash })
    expect(receipt.status).toBe('success')
    expect(receipt.from).toBe(account.address.toLowerCase())
  })

  test('fills for a sender whose key the node does not hold, and for an unfunded zero address when `from` is absent', async () => {
    const stranger = privateKeyToAccount(generatePrivateKey())
    await h.wallet.sendTransaction({ to: stranger.address, value: parseEther('1'), gas: 21_000n, ...h.fees() })
    await h.mine()
    const { tx } = await fill({ from: stranger.address, to: BOB, value: '0x1' })
    expect(tx).toMatchObject({ from: stranger.address.toLowerCase(), nonce: '0x0', gas: toHex(21_000) })
    // nothing to pay with: the gas is estimated at the fees the request gave (none), as reth and anvil do
    const anonymous = await fill({ to: BOB })
    expect(anonymous.tx).toMatchObject({ from: '0x0000000000000000000000000000000000000000', gas: toHex(21_000) })
  })

  test('fills a contract creation with a null recipient', async () => {
    // PUSH1 0 PUSH1 0 RETURN: deploys empty code
    const { tx } = await fill({ from: CAROL, data: '0x60006000f3' })
    expect(tx.to).toBeNull()
  })

  test('answers a call that reverts with the revert error, as eth_estimateGas does', async () => {
    const { address: token } = await h.deployToken(1000n)
    const input = encodeFunctionData({ abi: testToken.abi, functionName: 'transfer', args: [BOB, 10n ** 30n] })
    const filled = await h.rpc('general', 'eth_fillTransaction', [{ from: CAROL, to: token, input }])
    const estimated = await h.rpc('general', 'eth_estimateGas', [{ from: CAROL, to: token, input }])
    expect(filled.error?.code).toBe(3)
    expect(filled.error).toEqual(estimated.error)
  })

  test("refuses a chain id other than the node's, with geth's text", async () => {
    const reply = await h.rpc('general', 'eth_fillTransaction', [{ from: CAROL, to: BOB, chainId: '0x1' }])
    expect(reply.error).toMatchObject({ code: -32000, message: "chainId does not match node's (have=1, want=196)" })
  })
})
