import {
  JsonRpcProvider,
  Network,
  verifyMessage as verifyMessageEthers,
  verifyTypedData as verifyTypedDataEthers,
} from 'ethers'
import { type Hex, createWalletClient, http, parseEther, toHex, verifyMessage } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startService, type RunningService } from '../../src/service.js'
import { nextBaseFee } from '../../src/opstack/base-fee.js'
import { BOB, CAROL, DEV_KEY_2 } from '../support/dev-keys.js'
import { type Harness, startHarness, viemChain } from '../support/harness.js'
import { rpc } from '../support/rpc.js'

const DEV_2 = CAROL
const DEV_3: Hex = '0x90f79bf6eb2c4f870365e785982e1f101e93b906'
const STRANGER: Hex = '0x000000000000000000000000000000000000dead'

/** An EIP-2612 permit, the typed data dApps ask wallets to sign most. */
const PERMIT = {
  types: {
    EIP712Domain: [
      { name: 'name', type: 'string' },
      { name: 'version', type: 'string' },
      { name: 'chainId', type: 'uint256' },
      { name: 'verifyingContract', type: 'address' },
    ],
    Permit: [
      { name: 'owner', type: 'address' },
      { name: 'spender', type: 'address' },
      { name: 'value', type: 'uint256' },
      { name: 'nonce', type: 'uint256' },
      { name: 'deadline', type: 'uint256' },
    ],
  },
  primaryType: 'Permit',
  domain: {
    name: 'Token',
    version: '1',
    chainId: 196n,
    verifyingContract: '0x5fbdb2315678afecb367f032d93f642f64180aa3',
  },
  message: { owner: DEV_2, spender: BOB, value: 10n ** 18n, nonce: 0n, deadline: 2n ** 40n },
} as const

const bigints = (_: string, value: unknown) => (typeof value === 'bigint' ? value.toString() : value)

/** The unlocked dev accounts: eth_accounts, eth_sendTransaction through viem and ethers, eth_sign, personal_sign, eth_signTypedData_v4. */
describe('dev accounts', () => {
  let h: Harness

  beforeAll(async () => {
    h = await startHarness()
  })
  afterAll(() => h?.close())

  test('lists the ten anvil accounts in eth_accounts', async () => {
    const accounts = (await h.rpc('general', 'eth_accounts', [])).result as Hex[]
    expect(accounts).toHaveLength(10)
    expect(accounts[0]).toBe(h.alice.address.toLowerCase())
    expect(accounts[2]).toBe(DEV_2)
  })

  test('sends from a dev account through a viem wallet client with a JSON-RPC account', async () => {
    const wallet = createWalletClient({ account: DEV_2, chain: viemChain, transport: http(h.service.url) })
    const hash = await wallet.sendTransaction({ to: BOB, value: parseEther('1.5') })
    const before = await h.general.getBalance({ address: BOB })
    await h.mine()
    const receipt = await h.general.getTransactionReceipt({ hash })
    expect(receipt.status).toBe('success')
    expect(receipt.from).toBe(DEV_2)
    expect(await h.general.getBalance({ address: BOB })).toBe(before + parseEther('1.5'))
    const tx = await h.general.getTransaction({ hash })
    expect(tx.type).toBe('eip1559')
    expect(tx.chainId).toBe(196)
    // maxFeePerGas = 2 * base fee + tip, the tip being eth_maxPriorityFeePerGas (1 gwei on a fresh chain)
    expect(tx.maxPriorityFeePerGas).toBe(10n ** 9n)
    const parent = h.chain.store.byNumber(receipt.blockNumber - 1n)!
    expect(tx.maxFeePerGas).toBe(2n * nextBaseFee(parent.header) + 10n ** 9n)
  })

  test('fills a legacy transaction when only gasPrice is given and numbers nonces after pooled ones', async () => {
    const first = (
      await h.rpc('general', 'eth_sendTransaction', [
        { from: DEV_3, to: CAROL, value: '0x1', gasPrice: toHex(3n * 10n ** 9n) },
      ])
    ).result as Hex
    const second = (await h.rpc('general', 'eth_sendTransaction', [{ from: DEV_3, to: CAROL, value: '0x2' }]))
      .result as Hex
    await h.mine()
    const [a, b] = await Promise.all([
      h.general.getTransaction({ hash: first }),
      h.general.getTransaction({ hash: second }),
    ])
    expect(a.type).toBe('legacy')
    expect(a.gasPrice).toBe(3n * 10n ** 9n)
    expect(a.gas).toBe(21_000n)
    expect([a.nonce, b.nonce]).toEqual([0, 1])
  })

  test('sends from a dev account through an ethers JsonRpcSigner', async () => {
    const provider = new JsonRpcProvider(h.service.url, Network.from(196), { staticNetwork: true, cacheTimeout: -1 })
    const signer = await provider.getSigner(DEV_3)
    const sent = signer.sendTransaction({ to: BOB, value: 5n })
    const tx = await sent
    await h.mine()
    const receipt = await tx.wait()
    expect(receipt!.status).toBe(1)
    expect(receipt!.from.toLowerCase()).toBe(DEV_3)
    provider.destroy()
  })

  test("signs EIP-191 messages that viem verifies as the account's", async () => {
    const message = 'preconfirmed in 200 ms'
    const signature = (await h.rpc('general', 'eth_sign', [DEV_2, toHex(message)])).result as Hex
    expect(signature).toMatch(/^0x[0-9a-f]{130}$/)
    expect(await verifyMessage({ address: DEV_2, message, signature })).toBe(true)
    expect(await verifyMessage({ address: DEV_3, message, signature })).toBe(false)
    // deterministic (RFC 6979) signatures: the same bytes viem makes with the account's key
    const local = privateKeyToAccount(DEV_KEY_2)
    expect(await local.signMessage({ message })).toBe(signature)
  })

  test("signs messages for viem's and ethers' signMessage with an account the node holds (personal_sign)", async () => {
    const message = 'sign in to preconf-rpc'
    const wallet = createWalletClient({ account: DEV_2, chain: viemChain, transport: http(h.service.url) })
    const local = privateKeyToAccount(DEV_KEY_2)
    expect(await wallet.signMessage({ message })).toBe(await local.signMessage({ message }))
    const provider = new JsonRpcProvider(h.service.url, Network.from(196), { staticNetwork: true, cacheTimeout: -1 })
    const signature = await (await provider.getSigner(DEV_3)).signMessage(message)
    expect(verifyMessageEthers(message, signature).toLowerCase()).toBe(DEV_3)
    provider.destroy()
  })

  test("signs EIP-712 typed data for viem's and ethers' signTypedData (eth_signTypedData_v4)", async () => {
    const wallet = createWalletClient({ account: DEV_2, chain: viemChain, transport: http(h.service.url) })
    const local = privateKeyToAccount(DEV_KEY_2)
    expect(await wallet.signTypedData(PERMIT)).toBe(await local.signTypedData(PERMIT))
    const provider = new JsonRpcProvider(h.service.url, Network.from(196), { staticNetwork: true, cacheTimeout: -1 })
    const types = { Permit: [...PERMIT.types.Permit] }
    const signature = await (await provider.getSigner(DEV_3)).signTypedData(PERMIT.domain, types, PERMIT.message)
    expect(verifyTypedDataEthers(PERMIT.domain, types, PERMIT.message, signature).toLowerCase()).toBe(DEV_3)
    provider.destroy()
  })

  test('answers -32602 with the reason for typed data that does not encode', async () => {
    const sign = (typedData: unknown) => h.rpc('general', 'eth_signTypedData_v4', [DEV_2, typedData])
    expect((await sign('{"types":')).error).toEqual({
      code: -32602,
      message: 'invalid argument 1 (typedData): typed data is not valid JSON',
    })
    const wrongPrimary = (await sign(JSON.stringify({ ...PERMIT, primaryType: 'Nope' }, bigints))).error
    expect(wrongPrimary?.code).toBe(-32602)
    expect(wrongPrimary?.message).toMatch(/^invalid argument 1 \(typedData\): .*primaryType/)
    const notANumber = { ...PERMIT, message: { ...PERMIT.message, value: 'lots' } }
    expect((await sign(JSON.stringify(notANumber, bigints))).error?.code).toBe(-32602)
  })

  test('answers `unknown account` for an address it holds no key for', async () => {
    for (const [method, params] of [
      ['eth_sign', [STRANGER, '0x00']],
      ['personal_sign', ['0x00', STRANGER]],
      ['eth_signTypedData_v4', [STRANGER, JSON.stringify(PERMIT, bigints)]],
    ] as const) {
      expect((await h.rpc('general', method, [...params])).error).toEqual({ code: -32000, message: 'unknown account' })
    }
    const send = await h.rpc('general', 'eth_sendTransaction', [{ from: STRANGER, to: BOB, value: '0x1' }])
    expect(send.error).toEqual({ code: -32000, message: 'unknown account' })
  })
})

describe('dev accounts turned off', () => {
  let service: RunningService

  beforeAll(async () => {
    service = await startService({ port: 0, quiet: true, rateLimit: 0, devAccounts: false })
  })
  afterAll(() => service?.close())

  test('lists no accounts and refuses to sign or send for the dev keys', async () => {
    const dev0 = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266'
    expect((await rpc(service.url, 'eth_accounts', [])).result).toEqual([])
    for (const [method, params] of [
      ['eth_sign', [dev0, '0x00']],
      ['personal_sign', ['0x00', dev0]],
      ['eth_signTransaction', [{ from: dev0, to: BOB, value: '0x1' }]],
    ] as const) {
      expect((await rpc(service.url, method, [...params])).error).toEqual({ code: -32000, message: 'unknown account' })
    }
    const send = await rpc(service.url, 'eth_sendTransaction', [{ from: dev0, to: BOB, value: '0x1' }])
    expect(send.error).toEqual({ code: -32000, message: 'unknown account' })
  })
})
