import { Address, bytesToHex, concatBytes, hexToBytes, setLengthLeft } from '@ethereumjs/util'
import { encodeDeployData, encodeFunctionData } from 'viem'
import { serializeTransaction } from 'viem/op-stack'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { keccak256 } from '../../src/evm/crypto.js'
import { overTheWire } from '../support/over-the-wire.js'
import { signTx } from '../support/sign-tx.js'
import type { Flashblock } from '../../src/domain/types.js'
import { decodeFlashblock } from '../../src/feed/decode.js'
import { encodeFlashblock } from '../../src/feed/encode.js'
import type { FlashblockReceipt } from '../../src/feed/wire.js'
import { Reexecutor, type ReexecuteResult } from '../../src/follower/reexecute.js'
import type { UpstreamStateManager } from '../../src/follower/upstream-state.js'
import { type Harness, startHarness } from '../support/harness.js'
import { testToken } from '../support/fixtures.js'
import { UpstreamClient } from '../../src/follower/upstream-client.js'
import { userTxs } from '../support/user-txs.js'

describe("re-executing the leader's flashblocks on leader-backed state", () => {
  let h: Harness
  let token: Uint8Array
  const nonces = [0, 0, 0, 0]
  const send = async (
    from: number,
    fields: Parameters<typeof signTx>[2] extends infer F ? Omit<F & object, 'nonce'> : never,
  ) => h.chain.sendRawTransaction(await signTx(h.chain, from, { ...fields, nonce: nonces[from]++ }))
  const transferData = (to: Uint8Array, amount: bigint) =>
    hexToBytes(
      encodeFunctionData({
        abi: testToken.abi,
        functionName: 'transfer',
        args: [bytesToHex(to) as `0x${string}`, amount],
      }),
    )

  beforeAll(async () => {
    h = await startHarness()
    // the harness's own nonce counter is for account 0 through viem; these tests sign with accounts 1..3
    await send(1, {
      to: null,
      gas: 2_000_000n,
      data: hexToBytes(encodeDeployData({ abi: testToken.abi, bytecode: testToken.bytecode, args: [10n ** 6n] })),
    })
    const block = await h.chain.mine()
    token = block.receipts[1].contractAddress!
  })
  afterAll(() => h?.close())

  const accounts = () => h.chain.accounts.map((a) => a.address)

  async function expectSameState(ours: UpstreamStateManager, fb: Flashblock, addresses: Uint8Array[]) {
    const theirs = h.chain.stateAt(fb.diff.stateRoot)
    for (const bytes of addresses) {
      const address = new Address(bytes)
      const [a, b] = await Promise.all([ours.getAccount(address), theirs.getAccount(address)])
      expect({ nonce: a?.nonce, balance: a?.balance, code: a?.codeHash }).toEqual({
        nonce: b?.nonce,
        balance: b?.balance,
        code: b?.codeHash,
      })
      expect(await ours.getCode(address)).toEqual(await theirs.getCode(address))
      // TestToken's slots 0..3 and balanceOf[account] for every dev account
      const slots = [0n, 1n, 2n, 3n].map((s) => setLengthLeft(hexToBytes(`0x${s.toString(16).padStart(2, '0')}`), 32))
      for (const owner of accounts())
        slots.push(keccak256(concatBytes(setLengthLeft(owner, 32), setLengthLeft(Uint8Array.of(2), 32))))
      for (const slot of slots)
        expect(bytesToHex(await ours.getStorage(address, slot))).toBe(
          bytesToHex(await theirs.getStorage(address, slot)),
        )
    }
  }

  function expectSameExecution(result: ReexecuteResult, fb: Flashblock) {
    if (result.kind !== 'applied') throw new Error(`not applied: ${JSON.stringify(result)}`)
    const ours = result.flashblock
    expect(bytesToHex(ours.diff.blockHash)).toBe(bytesToHex(fb.diff.blockHash))
    expect(ours.diff.gasUsed).toBe(fb.diff.gasUsed)
    expect(bytesToHex(ours.diff.receiptsRoot)).toBe(bytesToHex(fb.diff.receiptsRoot))
    expect(ours.executed.txs.map((t) => bytesToHex(t.hash))).toEqual(fb.executed.txs.map((t) => bytesToHex(t.hash)))
    expect(ours.executed.receipts).toEqual(fb.executed.receipts)
    expect(bytesToHex(ours.executed.header.serialize())).toBe(bytesToHex(fb.executed.header.serialize()))
    expect(ours.metadata.newAccountBalances).toEqual(fb.metadata.newAccountBalances)
  }

  test("transfers, a deployment, token transfers and a revert give the leader's receipts, logs, gas, balances and nonces", async () => {
    const upstream = new UpstreamClient(h.service.url)
    const warnings: string[] = []
    const follower = new Reexecutor({ common: h.chain.common, upstream, warn: (m) => warnings.push(m) })
    const [alice, bob, carol] = [accounts()[1], accounts()[2], accounts()[3]]
    const canonical = h.chain.store.height

    await send(2, { to: carol, value: 12345n })
    await send(3, { to: bob, value: 10n ** 15n, type: 'legacy' })
    await send(1, { to: token, gas: 100_000n, data: transferData(bob, 700n) })
    const fb0 = await h.chain.buildNow()
    await send(1, {
      to: null,
      gas: 2_000_000n,
      data: hexToBytes(encodeDeployData({ abi: testToken.abi, bytecode: testToken.bytecode, args: [5n] })),
    })
    await send(2, { to: token, gas: 100_000n, data: transferData(carol, 300n) })
    await send(3, { to: token, gas: 100_000n, data: transferData(alice, 10n ** 9n) }) // more than carol holds: reverts, mined
    const fb1 = await h.chain.buildNow()
    expect(fb1.executed.receipts.map((r) => r.status)).toEqual([1, 1, 0])

    const r0 = await follower.apply(overTheWire(fb0), canonical)
    expectSameExecution(r0, fb0)
    const r1 = await follower.apply(overTheWire(fb1), canonical)
    expectSameExecution(r1, fb1)
    const deployed = fb1.executed.receipts[0].contractAddress!
    if (r1.kind !== 'applied') throw new Error('unreachable')
    await expectSameState(r1.state, fb1, [
      ...accounts(),
      token,
      deployed,
      fb1.base?.feeRecipient ?? fb0.base!.feeRecipient,
    ])
    expect(follower.stats).toMatchObject({
      flashblocks: 2,
      transactions: 7, // and the L1-info deposit of fb0
      receiptMismatches: 0,
      hashMismatches: 0,
      failures: 0,
    })
    expect(warnings).toEqual([])
    // accounts in one batch, then the contract calls' slots found by running them side by side
    const requests = [r0.kind === 'applied' ? r0.upstreamRequests : -1, r1.upstreamRequests]
    console.log(`upstream requests per flashblock: ${requests.join(', ')}`)
    for (const n of requests) expect(n).toBeLessThanOrEqual(4)
  })

  test('a block whose parent the upstream has not got yet runs on the state the previous block left', async () => {
    await h.chain.sealNow()
    const upstream = new UpstreamClient(h.service.url)
    const follower = new Reexecutor({ common: h.chain.common, upstream })
    const [alice, bob] = [accounts()[1], accounts()[2]]
    await send(1, { to: bob, value: 5n })
    const a0 = await h.chain.buildNow()
    expectSameExecution(await follower.apply(overTheWire(a0), h.chain.store.height), a0)
    const sealed = await h.chain.sealNow()
    expect(bytesToHex(sealed.hash)).toBe(bytesToHex(a0.diff.blockHash))
    await send(2, { to: alice, value: 7n })
    await send(1, { to: token, gas: 100_000n, data: transferData(bob, 2n) })
    const b0 = await h.chain.buildNow()
    // as if the upstream were still at a0's parent when b0 arrives
    const result = await follower.apply(overTheWire(b0), a0.metadata.blockNumber - 1n)
    expectSameExecution(result, b0)
    if (result.kind === 'applied') await expectSameState(result.state, b0, [alice, bob, token])
  })

  test("block after block, re-execution leaves no VM behind on the chain's Common (a follower's memory stays bounded)", async () => {
    await h.chain.sealNow()
    const follower = new Reexecutor({ common: h.chain.common, upstream: new UpstreamClient(h.service.url) })
    // @ethereumjs's EVM subscribes to its Common for good: one listener more per block was one VM kept per block
    const listeners = () => h.chain.common.events.listenerCount('hardforkChanged')
    const before = listeners()
    for (let i = 0; i < 5; i++) {
      await send(2, { to: accounts()[3], value: 1n })
      const fb = await h.chain.buildNow()
      expectSameExecution(await follower.apply(overTheWire(fb), h.chain.store.height), fb)
      await h.chain.sealNow()
    }
    expect(follower.stats.flashblocks).toBe(5)
    expect(listeners()).toBe(before)
  })

  test('a feed receipt that re-execution contradicts is counted and logged, and re-execution wins', async () => {
    await h.chain.sealNow()
    const warnings: string[] = []
    const follower = new Reexecutor({
      common: h.chain.common,
      upstream: new UpstreamClient(h.service.url),
      warn: (m) => warnings.push(m),
    })
    await send(1, { to: token, gas: 100_000n, data: transferData(accounts()[4], 3n) })
    const fb = await h.chain.buildNow()
    const message = encodeFlashblock(fb)
    const hash = bytesToHex(userTxs(fb.executed)[0].hash)
    message.metadata.receipts[hash] = {
      Eip1559: { ...(message.metadata.receipts[hash] as FlashblockReceipt).Eip1559!, status: '0x0', logs: [] },
    }
    const result = await follower.apply(decodeFlashblock(message), h.chain.store.height)
    expectSameExecution(result, fb)
    expect(follower.stats.receiptMismatches).toBe(2) // status and logs
    expect(warnings.join('\n')).toMatch(/status 0 in the feed, 1 re-executed; re-execution wins/)
  })

  test("an index 0 holding the L1-info deposit and a reverting user deposit re-executes to the leader's receipts and state", async () => {
    await h.chain.sealNow()
    const follower = new Reexecutor({ common: h.chain.common, upstream: new UpstreamClient(h.service.url) })
    const from = hexToBytes('0x00000000000000000000000000000000000d3905')
    // a token transfer from an account holding no tokens: reverts, the mint and the nonce bump stay
    const deposit = serializeTransaction({
      type: 'deposit',
      sourceHash: bytesToHex(keccak256(Uint8Array.of(7))) as `0x${string}`,
      from: bytesToHex(from) as `0x${string}`,
      to: bytesToHex(token) as `0x${string}`,
      mint: 10n ** 18n,
      value: 0n,
      gas: 100_000n,
      data: bytesToHex(transferData(accounts()[2], 1n)) as `0x${string}`,
    })
    await h.chain.sendRawTransaction(hexToBytes(deposit))
    const fb = await h.chain.buildNow()
    expect(fb.index).toBe(0)
    expect(fb.executed.txs.map((t) => t.tx.type)).toEqual([0x7e, 0x7e])
    expect(fb.executed.receipts.map((r) => r.status)).toEqual([1, 0])
    const result = await follower.apply(overTheWire(fb), h.chain.store.height)
    expectSameExecution(result, fb)
    if (result.kind === 'applied') await expectSameState(result.state, fb, [from, token])
  })

  test('duplicates are ignored, a gap drops the block until the next index 0, and a transaction that cannot run drops it too', async () => {
    await h.chain.sealNow()
    const follower = new Reexecutor({ common: h.chain.common, upstream: new UpstreamClient(h.service.url) })
    const height = h.chain.store.height
    await send(2, { to: accounts()[5], value: 1n })
    const a = await h.chain.buildNow()
    await send(2, { to: accounts()[5], value: 2n })
    const b = await h.chain.buildNow()
    await send(2, { to: accounts()[5], value: 3n })
    const c = await h.chain.buildNow()
    expect((await follower.apply(overTheWire(a), height)).kind).toBe('applied')
    expect(await follower.apply(overTheWire(a), height)).toEqual({ kind: 'ignored', reason: 'duplicate' })
    expect((await follower.apply(overTheWire(c), height)).kind).toBe('dropped') // b skipped
    expect((await follower.apply(overTheWire(b), height)).kind).toBe('dropped') // mid-block, waits for an index 0
    expect(await follower.apply(overTheWire(a), height + 1n)).toEqual({ kind: 'ignored', reason: 'stale' }) // canonical has a's block

    // b's transaction needs a's nonce first: on its own after index 0 it cannot run
    const fresh = new Reexecutor({ common: h.chain.common, upstream: new UpstreamClient(h.service.url) })
    const bAsFirst = {
      ...overTheWire(a),
      diff: { ...overTheWire(a).diff, transactions: overTheWire(b).diff.transactions },
    }
    const dropped = await fresh.apply(bAsFirst, height)
    expect(dropped.kind).toBe('dropped')
    expect(fresh.stats.failures).toBe(1)
  })
})
