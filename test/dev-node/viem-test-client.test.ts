/**
 * viem's test client, in mode `anvil` and mode `hardhat`, runs one script of dev-node actions against this
 * service and against anvil; everything a user can observe must come out the same: balances, code,
 * storage, nonces, block numbers and timestamps, gas limit, base fee and miner of mined blocks, an
 * impersonated transfer, an unsigned one, anvil_addBalance, the pool, a revert restoring all of it, a reset. Mining is on demand on both
 * (automine off), so nothing depends on a clock. Where a method does not exist in a mode (Hardhat has no
 * *_setBlockTimestampInterval), both must answer the same error.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import {
  type BaseError,
  createPublicClient,
  createTestClient,
  createWalletClient,
  type Hex,
  http,
  type PublicClient,
  type TestClient,
} from 'viem'
import { startService, type RunningService } from '../../src/service.js'
import { preconfRpcChain } from '../../src/client/chains.js'
import { type RunningAnvil, startAnvil } from '../support/anvil.js'
import { CAROL, devAccount } from '../support/dev-keys.js'

const chain = preconfRpcChain()
const ALICE: Hex = '0x00000000000000000000000000000000000a11ce'
const CONTRACT: Hex = '0x00000000000000000000000000000000c0ffee00'
const MINER: Hex = '0x000000000000000000000000000000000000beef'
const DAVE: Hex = '0x00000000000000000000000000000000000da7e0'
// far enough ahead of both nodes' clocks that the exact timestamp is always accepted
const FUTURE = BigInt(Math.floor(Date.now() / 1000)) + 10_000_000n

/** The result, or the JSON-RPC error code a call ended with. */
async function outcome<T>(run: () => Promise<T>): Promise<T | { error: number | undefined }> {
  try {
    return await run()
  } catch (err) {
    const coded = (err as BaseError).walk?.((e) => typeof (e as { code?: unknown }).code === 'number') as unknown
    return { error: (coded as { code?: number } | null)?.code }
  }
}

/** The dev-node script; returns what a user sees at each step. */
async function script(url: string, mode: 'anvil' | 'hardhat'): Promise<Record<string, unknown>> {
  const testClient = createTestClient({ mode, chain, transport: http(url) }) as TestClient<typeof mode>
  // no chain: preconf-rpc/client's chain reads `pending` by default, which anvil answers with its next block
  const pub = createPublicClient({ transport: http(url) }) as PublicClient
  const seen: Record<string, unknown> = {}
  const block = async () => {
    const b = await pub.getBlock({ blockTag: 'latest' })
    // the miner and base fee differ by design until set (anvil: 0x0 and Ethereum's EIP-1559 rule; here the OP
    // fee vault and the OP chain's rule): only their settings below are compared
    return { number: b.number - start, timestamp: b.timestamp, gasLimit: b.gasLimit }
  }

  await testClient.setIntervalMining({ interval: 0 })
  await testClient.setAutomine(false)
  seen.automine = await testClient.getAutomine()
  const start = await pub.getBlockNumber()

  // state edits: visible at once, no block built
  await testClient.setBalance({ address: ALICE, value: 123_456n })
  await testClient.setCode({ address: CONTRACT, bytecode: '0x60016000f3' })
  await testClient.setStorageAt({ address: CONTRACT, index: 2, value: `0x${'ab'.repeat(32)}` })
  await testClient.setNonce({ address: ALICE, nonce: 5 })
  seen.edited = {
    balance: await pub.getBalance({ address: ALICE }),
    code: await pub.getCode({ address: CONTRACT }),
    slot: await pub.getStorageAt({ address: CONTRACT, slot: '0x2' }),
    nonce: await pub.getTransactionCount({ address: ALICE }),
    number: (await pub.getBlockNumber()) - start,
  }
  const id = await testClient.snapshot()
  // anvil_dumpState (Hardhat has none: anvil's hardhat_dumpState alias is anvil's own)
  const dumped = mode === 'anvil' ? await testClient.dumpState() : undefined

  // mining and time
  await testClient.setNextBlockTimestamp({ timestamp: FUTURE })
  await testClient.mine({ blocks: 1 })
  seen.exactTime = await block()
  seen.interval = await outcome(async () => {
    await testClient.setBlockTimestampInterval({ interval: 5 })
    await testClient.mine({ blocks: 2 })
    const b = await block()
    await testClient.removeBlockTimestampInterval()
    return b
  })
  const before = await block()
  await testClient.increaseTime({ seconds: 3600 })
  await testClient.mine({ blocks: 1 })
  const after = await block()
  // the exact timestamp anchored the clock (the interval blocks did not move it): an hour on from there
  seen.increased = { blocks: after.number - before.number, atLeastAnHour: after.timestamp >= FUTURE + 3600n }

  // an impersonated sender: no key, the transaction waits in the pool until mined
  await testClient.setBalance({ address: ALICE, value: 10n ** 18n })
  await testClient.impersonateAccount({ address: ALICE })
  const wallet = createWalletClient({ account: ALICE, chain, transport: http(url) })
  const hash = await wallet.sendTransaction({ to: CAROL, value: 1000n })
  const pool = await testClient.inspectTxpool()
  seen.pooled = Object.keys(pool.pending).map((sender) => sender.toLowerCase())
  await testClient.mine({ blocks: 1 })
  const receipt = await pub.getTransactionReceipt({ hash })
  seen.impersonated = { status: receipt.status, from: receipt.from, gasUsed: receipt.gasUsed }
  await testClient.stopImpersonatingAccount({ address: ALICE })
  // refused on both (geth's -32000 `unknown account` here, -32602 on anvil)
  seen.afterStop = 'error' in Object(await outcome(() => wallet.sendTransaction({ to: CAROL, value: 1n })))

  // an unsigned transaction from an address never impersonated (anvil's eth_sendUnsignedTransaction), and
  // anvil_addBalance on top of what the transfer left
  await testClient.setBalance({ address: DAVE, value: 10n ** 18n })
  const unsigned = await testClient.sendUnsignedTransaction({ from: DAVE, to: CAROL, value: 5n })
  await testClient.mine({ blocks: 1 })
  const unsignedReceipt = await pub.getTransactionReceipt({ hash: unsigned })
  seen.unsigned = { status: unsignedReceipt.status, from: unsignedReceipt.from, gasUsed: unsignedReceipt.gasUsed }
  await testClient.setBalance({ address: DAVE, value: 1000n })
  await testClient.request({ method: 'anvil_addBalance', params: [DAVE, '0x10'] } as never)
  seen.added = await pub.getBalance({ address: DAVE })

  // the pool: a dropped transaction is gone
  const devWallet = createWalletClient({ account: devAccount, chain, transport: http(url) })
  const dropped = await devWallet.sendTransaction({ to: CAROL, value: 7n })
  await testClient.dropTransaction({ hash: dropped })
  seen.afterDrop = await testClient.inspectTxpool()

  // the next blocks' settings
  await testClient.setBlockGasLimit({ gasLimit: 20_000_000n })
  await testClient.setNextBlockBaseFeePerGas({ baseFeePerGas: 7_000_000_000n })
  await testClient.setCoinbase({ address: MINER })
  await testClient.mine({ blocks: 1 })
  const settings = await pub.getBlock({ blockTag: 'latest' })
  seen.settings = { gasLimit: settings.gasLimit, baseFee: settings.baseFeePerGas, miner: settings.miner }
  seen.minGasPrice = await outcome(() => testClient.setMinGasPrice({ gasPrice: 1n }))

  // revert: everything after the snapshot is gone, what came before stays
  const revert = () => testClient.request({ method: 'evm_revert', params: [id] } as never)
  seen.reverted = await revert()
  seen.afterRevert = {
    number: (await pub.getBlockNumber()) - start,
    alice: await pub.getBalance({ address: ALICE }),
    nonce: await pub.getTransactionCount({ address: ALICE }),
    code: await pub.getCode({ address: CONTRACT }),
    carol: await pub.getBalance({ address: CAROL }),
  }
  seen.revertAgain = await revert()

  // reset: the chain as it started. viem's reset() always sends {forking: {...}}, which a node that was not
  // forked refuses (anvil: "Forking not enabled and RPC URL not provided"); without params it resets
  seen.resetWithForking = await outcome(() => testClient.reset())
  await testClient.request({ method: `${mode}_reset`, params: [] } as never)
  seen.afterReset = {
    number: await pub.getBlockNumber(),
    alice: await pub.getBalance({ address: ALICE }),
    code: await pub.getCode({ address: CONTRACT }),
    dev0: await pub.getBalance({ address: devAccount.address }),
  }
  if (dumped) {
    await testClient.loadState({ state: dumped })
    seen.loaded = {
      alice: await pub.getBalance({ address: ALICE }),
      slot: await pub.getStorageAt({ address: CONTRACT, slot: '0x2' }),
    }
  }
  return seen
}

for (const mode of ['anvil', 'hardhat'] as const) {
  describe(`viem's test client in mode ${mode}`, () => {
    let service: RunningService
    let anvil: RunningAnvil

    beforeAll(async () => {
      service = await startService({ port: 0, quiet: true, rateLimit: 0, mining: false })
      // anvil gets our genesis gas limit (X Layer's preset, not anvil's 30M), so blocks compare equal
      const { gasLimit } = service.chain.store.latest().header
      anvil = await startAnvil(['--gas-limit', String(gasLimit)])
    })
    afterAll(async () => {
      anvil?.close()
      await service?.close()
    })

    test('runs every action against the service with the observable results anvil gives', async () => {
      const ours = await script(service.url, mode)
      const theirs = await script(anvil.url, mode)
      expect(ours).toEqual(theirs)
      // and the script saw what it should, not merely the same thing twice
      expect(ours.automine).toBe(false)
      expect(ours.edited).toEqual({
        balance: 123_456n,
        code: '0x60016000f3',
        slot: `0x${'ab'.repeat(32)}`,
        nonce: 5,
        number: 0n,
      })
      expect((ours.exactTime as { timestamp: bigint }).timestamp).toBe(FUTURE)
      expect(ours.impersonated).toMatchObject({ status: 'success', from: ALICE })
      expect(ours.unsigned).toMatchObject({ status: 'success', from: DAVE })
      expect(ours.added).toBe(1016n)
      expect(ours.settings).toEqual({ gasLimit: 20_000_000n, baseFee: 7_000_000_000n, miner: MINER })
      expect(ours.reverted).toBe(true)
      expect(ours.revertAgain).toBe(false)
      expect(ours.afterRevert).toMatchObject({ number: 0n, alice: 123_456n, nonce: 5, carol: 10_000n * 10n ** 18n })
      expect(ours.afterReset).toMatchObject({ number: 0n, alice: 0n, code: undefined })
      expect(ours.increased).toEqual({ blocks: 1n, atLeastAnHour: true })
      expect(ours.afterStop).toBe(true)
      if (mode === 'anvil') expect(ours.loaded).toEqual({ alice: 123_456n, slot: `0x${'ab'.repeat(32)}` })
    })
  })
}
