/**
 * The same scenario against anvil and against our embedded chain, through viem: transfers, a deployment,
 * token transfers, storage writes, a mined revert, a CREATE with an inner call. State, receipts, calls,
 * estimates, eth_fillTransaction's fields and callTracer output must agree. Legitimate differences are left out of the comparison:
 * block/tx hashes and numbers and timestamps (different chains, different clocks), effectiveGasPrice and
 * balances of the fee payer (different base fees), cumulativeGasUsed only compared because each tx is
 * waited for alone (one tx per block on both).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createPublicClient, createWalletClient, encodeFunctionData, http, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { startService, type RunningService } from '../../src/service.js'
import { preconfRpcChain } from '../../src/client/chains.js'
import { type RunningAnvil, startAnvil } from '../support/anvil.js'
import { CAROL, DEV_KEY_1 } from '../support/dev-keys.js'
import { testToken } from '../support/fixtures.js'
import { rpc } from '../support/rpc.js'

const OTHER = CAROL
// the client package's chain; every client below names its own URL
const chain = preconfRpcChain()

type Outcome = Record<string, unknown>

/** Runs the scenario on one node and returns everything that must agree. */
async function scenario(url: string): Promise<Outcome> {
  const account = privateKeyToAccount(DEV_KEY_1)
  const pub = createPublicClient({ chain, transport: http(url), pollingInterval: 50 })
  const wallet = createWalletClient({ chain, account, transport: http(url) })
  const gasPrice = 5_000_000_000n
  const send = async (tx: { to?: Hex; data?: Hex; value?: bigint; gas?: bigint }) => {
    const hash = await wallet.sendTransaction({
      ...tx,
      gas: tx.gas ?? 3_000_000n,
      maxFeePerGas: gasPrice,
      maxPriorityFeePerGas: 1n,
    } as never)
    return pub.waitForTransactionReceipt({ hash })
  }
  const receipts = []
  receipts.push(await send({ to: OTHER, value: 10n ** 18n, gas: 21_000n }))
  const deploy = await send({ data: `${testToken.bytecode + '00'.repeat(31)}0f4240` as Hex })
  receipts.push(deploy)
  const token = deploy.contractAddress!
  const abi = testToken.abi
  const call = (functionName: string, args: unknown[] = []) => encodeFunctionData({ abi, functionName, args } as never)
  receipts.push(await send({ to: token, data: call('transfer', [OTHER, 1000n]) }))
  receipts.push(await send({ to: token, data: call('increment') }))
  receipts.push(await send({ to: token, data: call('increment') }))
  receipts.push(await send({ to: token, data: call('transfer', [OTHER, 10n ** 30n]), gas: 100_000n })) // reverts, mined
  const spawned = await send({ to: token, data: call('spawn') })
  receipts.push(spawned)

  const trace = await pub.request({
    method: 'debug_traceTransaction',
    params: [spawned.transactionHash, { tracer: 'callTracer' }],
  } as never)
  const estimate = (data: Hex) => pub.estimateGas({ account: account.address, to: token, data })
  const ethCall = (data: Hex) => pub.call({ account: account.address, to: token, data }).then((r) => r.data)
  return {
    nonce: await pub.getTransactionCount({ address: account.address, blockTag: 'latest' }),
    otherBalance: await pub.getBalance({ address: OTHER }),
    code: await pub.getCode({ address: token }),
    slots: await Promise.all(
      [0n, 1n].map((slot) => pub.getStorageAt({ address: token, slot: `0x${slot.toString(16)}` })),
    ),
    receipts: receipts.map((r) => ({
      status: r.status,
      // cumulativeGasUsed is not compared: our blocks open with the OP Stack L1-info deposit, anvil's do not
      gasUsed: r.gasUsed,
      contractAddress: r.contractAddress ?? null,
      logs: r.logs.map((l) => ({ address: l.address, topics: l.topics, data: l.data })),
    })),
    calls: await Promise.all(
      [call('counter'), call('balanceOf', [OTHER]), call('totalSupply')].map((d) => ethCall(d as Hex)),
    ),
    estimates: await Promise.all([call('increment'), call('transfer', [OTHER, 5n])].map((d) => estimate(d as Hex))),
    filled: await fillTransaction(url, { from: account.address, to: token, input: call('transfer', [OTHER, 5n]) }),
    trace,
  }
}

/** eth_fillTransaction's fields both nodes must fill alike: not the fees (different base fees) nor anvil's extras. */
async function fillTransaction(url: string, request: Record<string, unknown>) {
  const { tx } = (await rpc(url, 'eth_fillTransaction', [request])).result as { tx: Record<string, unknown> }
  const { type, chainId, nonce, gas, to, value, input, accessList, from } = tx
  return { type, chainId, nonce, gas, to, value, input, accessList, from }
}

describe('agreement with anvil', () => {
  let anvil: RunningAnvil
  let anvilUrl: string
  let ours: RunningService
  beforeAll(async () => {
    anvil = await startAnvil()
    anvilUrl = anvil.url
    ours = await startService({ port: 0, quiet: true, rateLimit: 0, blockTimeMs: 400, flashblockIntervalMs: 100 })
  })
  afterAll(async () => {
    anvil?.close()
    await ours?.close()
  })

  test('one scenario of transfers, deployment, storage writes, a revert and a CREATE leaves both nodes agreeing', async () => {
    const theirs = await scenario(anvilUrl)
    const mine = await scenario(ours.url)
    expect(mine.receipts).toEqual(theirs.receipts)
    expect(mine.nonce).toBe(theirs.nonce)
    expect(mine.otherBalance).toBe(theirs.otherBalance)
    expect(mine.code).toBe(theirs.code)
    expect(mine.slots).toEqual(theirs.slots)
    expect(mine.calls).toEqual(theirs.calls)
    expect(mine.estimates).toEqual(theirs.estimates)
    expect(mine.filled).toEqual(theirs.filled)
    expect(mine.trace).toEqual(theirs.trace)
  }, 120_000)
})
