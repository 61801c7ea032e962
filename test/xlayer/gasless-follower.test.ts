/**
 * A follower re-executes X Layer's gasless transactions as the sequencer ran them: it asks the whitelist
 * predeploy on the followed chain's state (upstream reads) and runs a covered zero-priced transaction under a
 * base fee of 0 without charging it, so its preconfirmed receipt, block hash and state root agree with the
 * leader's (xlayer-reth's e2e test crates/tests/e2e-tests/gasless.rs checks the same between its sequencer and
 * a validator). The leader is the embedded service, sealing only when told.
 */
import { afterAll, beforeAll, expect, test } from 'vitest'
import { createWalletClient, encodeFunctionData, getContractAddress, type Hex, http } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { hexToBytes } from '@ethereumjs/util'
import { type RunningFollower, type RunningService, startService } from '../../src/service.js'
import { devAccount } from '../support/dev-keys.js'
import { testToken } from '../support/fixtures.js'
import { call } from '../support/rpc.js'
import { until } from '../support/wait-for.js'
import { viemChain } from '../support/harness.js'

const TOKEN = getContractAddress({ from: devAccount.address, nonce: 0n })

let leader: RunningService
let follower: RunningFollower

beforeAll(async () => {
  leader = await startService({
    port: 0,
    quiet: true,
    rateLimit: 0,
    blockTimeMs: 3_600_000,
    flashblockIntervalMs: 200,
    gaslessTargets: [{ address: hexToBytes(TOKEN), gasLimit: 100_000n }],
  })
  follower = (await startService({
    port: 0,
    quiet: true,
    rateLimit: 0,
    upstream: leader.url,
    upstreamFeed: `${leader.wsUrl}ws/flashblocks`,
    flashblocksIdleTimeoutMs: 60_000,
  })) as RunningFollower
}, 60_000)

afterAll(async () => {
  await follower?.close()
  await leader?.close()
})

test('a follower preconfirms a gasless transfer with the leader receipt, hash and state root', async () => {
  const wallet = createWalletClient({ account: devAccount, chain: viemChain, transport: http(leader.url) })
  let nonce = 0
  const fees = () => ({ nonce: nonce++, maxFeePerGas: 10n ** 10n, maxPriorityFeePerGas: 10n ** 9n })
  await wallet.deployContract({
    abi: testToken.abi,
    bytecode: testToken.bytecode,
    args: [10n ** 24n],
    gas: 2_000_000n,
    ...fees(),
  })
  const sender = privateKeyToAccount(generatePrivateKey())
  const transfer = (to: Hex, amount: bigint) =>
    encodeFunctionData({ abi: testToken.abi, functionName: 'transfer', args: [to, amount] })
  await wallet.sendTransaction({ to: TOKEN, data: transfer(sender.address, 1_000n), gas: 100_000n, ...fees() })
  // the follower joins at a block's index 0: seal until it preconfirms the leader's open block
  for (let attempt = 1; ; attempt++) {
    await leader.chain.sealNow()
    try {
      await until(() => follower.follower.pending.current() !== undefined, 'the follower to preconfirm', 5_000)
      break
    } catch (err) {
      if (attempt === 4) throw err
    }
  }

  const raw = await sender.signTransaction({
    chainId: viemChain.id,
    type: 'eip1559',
    nonce: 0,
    to: TOKEN,
    data: transfer(privateKeyToAccount(generatePrivateKey()).address, 10n),
    gas: 100_000n,
    maxFeePerGas: 0n,
    maxPriorityFeePerGas: 0n,
  })
  // sent through the follower, which forwards it to the leader (its sequencer)
  const hash = await call<Hex>(follower.url, 'eth_sendRawTransaction', [raw])
  await until(() => follower.follower.pending.tx(hexToBytes(hash)) !== undefined, 'the follower to re-execute it')
  const onFollower = await call(follower.flashblocksUrl, 'eth_getTransactionReceipt', [hash])
  expect(onFollower).toEqual(await call(leader.flashblocksUrl, 'eth_getTransactionReceipt', [hash]))
  expect(onFollower).toMatchObject({ status: '0x1', effectiveGasPrice: '0x0' })
  const pending = await call(follower.flashblocksUrl, 'eth_getBlockByNumber', ['pending', false])
  const leaderPending = await call(leader.flashblocksUrl, 'eth_getBlockByNumber', ['pending', false])
  expect(pending.stateRoot).toBe(leaderPending.stateRoot)
  expect(pending.hash).toBe(leaderPending.hash)
  expect(await call(follower.flashblocksUrl, 'eth_getBalance', [sender.address, 'pending'])).toBe('0x0')
  const { reexecution } = follower.follower.status().follower!
  expect(reexecution).toMatchObject({ receiptMismatches: 0, hashMismatches: 0 })
}, 60_000)
