/**
 * X Layer's gasless transactions on a real service (viem clients on loopback): a zero-priced call to a target
 * on the whitelist predeploy (--gasless-targets) is admitted, preconfirmed and sealed with effective gas price 0,
 * and charged exactly what xlayer-reth charges one: nothing but its value. op-revm's handler (okx/optimism
 * 3349a7c, the submodule of okx/xlayer-reth b85080e, rust/op-revm/src/handler.rs) skips for `is_gasless` the
 * L1 data fee and operator fee charge, the gas charge and refund, and the beneficiary and vault rewards; gas
 * is still counted. A zero-priced call off the list is refused (-32000), and past the block's gasless budget
 * (--gasless-block-gas-limit) a gasless transaction waits for the next block.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import {
  createPublicClient,
  createWalletClient,
  encodeFunctionData,
  getContractAddress,
  type Hex,
  http,
  type PublicClient,
} from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { hexToBytes, bytesToHex } from '@ethereumjs/util'
import type { Chain } from '../../src/chain/chain.js'
import type { RunningService } from '../../src/service.js'
import { BASE_FEE_VAULT, L1_FEE_VAULT, OPERATOR_FEE_VAULT, SEQUENCER_FEE_VAULT } from '../../src/opstack/addresses.js'
import { opStackChain, startFrozenService, viemChain } from '../support/harness.js'
import { devAccount } from '../support/dev-keys.js'
import { testToken } from '../support/fixtures.js'
import { rpc } from '../support/rpc.js'

// the token dev account 0 deploys first (nonce 0) is whitelisted before it exists, as an operator would
const TOKEN = getContractAddress({ from: devAccount.address, nonce: 0n })
const ALLOWANCE = 80_000n
const BUDGET = 120_000n
const VAULTS = [BASE_FEE_VAULT, L1_FEE_VAULT, OPERATOR_FEE_VAULT, SEQUENCER_FEE_VAULT].map((a) => bytesToHex(a) as Hex)

let service: RunningService
let chain: Chain
let general: PublicClient
let flash: PublicClient
let nonce = 0

const paid = () => ({ nonce: nonce++, maxFeePerGas: 10n ** 10n, maxPriorityFeePerGas: 10n ** 9n })
const transferData = (to: Hex, amount: bigint) =>
  encodeFunctionData({ abi: testToken.abi, functionName: 'transfer', args: [to, amount] })

/** A fresh account holding tokens and no OKB at all. */
async function tokenHolder(amount: bigint) {
  const account = privateKeyToAccount(generatePrivateKey())
  const wallet = createWalletClient({ account: devAccount, chain: viemChain, transport: http(service.url) })
  await wallet.sendTransaction({ to: TOKEN, data: transferData(account.address, amount), gas: 100_000n, ...paid() })
  return account
}

/** Signs a zero-priced EIP-1559 transaction and sends it raw; the hash, or the JSON-RPC error. */
async function sendZeroPriced(from: ReturnType<typeof privateKeyToAccount>, to: Hex, data: Hex, gas = ALLOWANCE) {
  const raw = await from.signTransaction({
    chainId: viemChain.id,
    type: 'eip1559',
    nonce: 0,
    to,
    data,
    gas,
    maxFeePerGas: 0n,
    maxPriorityFeePerGas: 0n,
  })
  return rpc(service.url, 'eth_sendRawTransaction', [raw])
}

beforeAll(async () => {
  service = await startFrozenService({
    gaslessTargets: [{ address: hexToBytes(TOKEN), gasLimit: ALLOWANCE }],
    gaslessBlockGasLimit: BUDGET,
  })
  chain = service.chain as Chain
  general = createPublicClient({ chain: opStackChain, transport: http(service.url) }) as PublicClient
  flash = createPublicClient({ chain: opStackChain, transport: http(service.flashblocksUrl) }) as PublicClient
  const wallet = createWalletClient({ account: devAccount, chain: viemChain, transport: http(service.url) })
  await wallet.deployContract({
    abi: testToken.abi,
    bytecode: testToken.bytecode,
    args: [10n ** 24n],
    gas: 2_000_000n,
    ...paid(),
  })
  await chain.mine()
})

afterAll(() => service?.close())

describe('gasless transactions', () => {
  test('a whitelisted zero-priced token transfer from an account without OKB preconfirms and seals at price 0, paying nothing', async () => {
    const sender = await tokenHolder(1_000n)
    await chain.mine()
    const recipient = privateKeyToAccount(generatePrivateKey()).address
    const data = transferData(recipient, 250n)
    // eth_estimateGas answers for a zero-priced call from an account without OKB
    const estimate = await general.estimateGas({ account: sender.address, to: TOKEN, data, maxFeePerGas: 0n })
    expect(estimate).toBeGreaterThan(21_000n)
    expect(estimate).toBeLessThanOrEqual(ALLOWANCE)

    const before = await Promise.all(VAULTS.map((address) => general.getBalance({ address })))
    const sent = await sendZeroPriced(sender, TOKEN, data)
    expect(sent.error).toBeUndefined()
    const hash = sent.result as Hex

    await chain.buildNow()
    const preconfirmed = await flash.getTransactionReceipt({ hash })
    expect(preconfirmed.status).toBe('success')
    expect(preconfirmed.effectiveGasPrice).toBe(0n)

    const block = await chain.sealNow()
    const receipt = await general.getTransactionReceipt({ hash })
    expect(receipt.blockNumber).toBe(block.number)
    expect(receipt.effectiveGasPrice).toBe(0n)
    expect(receipt.gasUsed).toBe(preconfirmed.gasUsed)
    expect(receipt.gasUsed).toBeGreaterThan(21_000n)
    expect((await general.getTransaction({ hash })).gasPrice).toBe(0n)
    // gas is counted in the block even though no one pays for it
    expect((await general.getBlock({ blockNumber: block.number })).gasUsed).toBeGreaterThanOrEqual(receipt.gasUsed)
    // charged: nothing. The sender still holds no OKB; no vault and not the coinbase received anything
    expect(await general.getBalance({ address: sender.address })).toBe(0n)
    expect(await Promise.all(VAULTS.map((address) => general.getBalance({ address })))).toEqual(before)
    // the receipt reports the L1 fee computed for its bytes, as op-reth's receipt builder (rpc/src/eth/
    // receipt.rs) does for every transaction; the handler did not charge it
    expect((receipt as unknown as { l1Fee: bigint }).l1Fee).toBeGreaterThan(0n)
    // debug_traceTransaction replays it gasless too (xlayer-reth's e2e test_gasless_debug_trace_transaction)
    const trace = await rpc(service.url, 'debug_traceTransaction', [hash, { tracer: 'callTracer' }])
    expect(trace.error).toBeUndefined()
    expect(trace.result).toMatchObject({ from: sender.address.toLowerCase(), to: TOKEN.toLowerCase() })
    expect(
      await general.readContract({
        address: TOKEN,
        abi: testToken.abi,
        functionName: 'balanceOf',
        args: [recipient],
      }),
    ).toBe(250n)
  })

  test('a zero-priced call to a target off the whitelist is refused with -32000 naming the whitelist', async () => {
    const sender = await tokenHolder(1_000n)
    await chain.mine()
    const other = privateKeyToAccount(generatePrivateKey()).address
    const reply = await sendZeroPriced(sender, other, '0xdeadbeef')
    expect(reply.error?.code).toBe(-32000)
    // X Layer mainnet's whitelist predeploy (okx/optimism 3349a7c xlayer_gasless_contract.rs), chain 196
    expect(reply.error?.message).toBe(
      'transaction underpriced: a zero-priced transaction must call a target on the gasless whitelist (0x19787404b0c70021b4752028f7e3a92313885b27)',
    )
  })

  test('a whitelisted call asking for more gas than the allowance is refused', async () => {
    const sender = await tokenHolder(1_000n)
    await chain.mine()
    const reply = await sendZeroPriced(sender, TOKEN, transferData(sender.address, 1n), ALLOWANCE + 1n)
    expect(reply.error).toEqual({
      code: -32000,
      message: `gasless transaction gas limit ${ALLOWANCE + 1n} exceeds the whitelist's allowance ${ALLOWANCE}`,
    })
  })

  test('past the block gasless budget a gasless transaction waits for the next block', async () => {
    const senders = [await tokenHolder(10n), await tokenHolder(10n), await tokenHolder(10n)]
    await chain.mine()
    const hashes: Hex[] = []
    for (const sender of senders) {
      const reply = await sendZeroPriced(
        sender,
        TOKEN,
        transferData(privateKeyToAccount(generatePrivateKey()).address, 1n),
      )
      hashes.push(reply.result as Hex)
    }
    const first = await chain.mine()
    const included = (block: typeof first) => hashes.filter((h) => block.txs.some((t) => bytesToHex(t.hash) === h))
    const inFirst = included(first)
    const gasOf = async (hash: Hex) => (await general.getTransactionReceipt({ hash })).gasUsed
    const used = (await Promise.all(inFirst.map(gasOf))).reduce((a, b) => a + b, 0n)
    expect(inFirst.length).toBe(2)
    expect(used).toBeLessThanOrEqual(BUDGET)
    const waiting = hashes.find((h) => !inFirst.includes(h))!
    expect(used + (await pendingGas(waiting))).toBeGreaterThan(BUDGET)
    const second = await chain.mine()
    expect(included(second)).toEqual([waiting])
  })
})

/** The gas a transaction still in the pool will use: the same transfer's gas, from a receipt-free estimate. */
async function pendingGas(hash: Hex): Promise<bigint> {
  const tx = await general.getTransaction({ hash })
  return general.estimateGas({ account: tx.from, to: tx.to!, data: tx.input, maxFeePerGas: 0n })
}
