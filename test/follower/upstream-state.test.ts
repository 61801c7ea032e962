import { Account, Address, bytesToHex, hexToBytes, setLengthLeft } from '@ethereumjs/util'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { UpstreamSnapshot } from '../../src/follower/upstream-snapshot.js'
import { UpstreamStateManager } from '../../src/follower/upstream-state.js'
import { type Harness, startHarness } from '../support/harness.js'
import { BOB } from '../support/dev-keys.js'
import { UpstreamClient } from '../../src/follower/upstream-client.js'
import type { EVM } from '@ethereumjs/evm'
import { createLegacyTx } from '@ethereumjs/tx'
import { createVM } from '@ethereumjs/vm'
import { encodeFunctionData } from 'viem'
import type { TxRecord } from '../../src/domain/types.js'
import { throwawayVmCommon } from '../../src/evm/chain-common.js'
import { discoverReads } from '../../src/follower/discover.js'
import { testToken } from '../support/fixtures.js'
import { startStallingUpstream } from '../support/stalling-upstream.js'

const slot = (n: number) => setLengthLeft(Uint8Array.of(n), 32)

describe('upstream-backed state on the leader', () => {
  let h: Harness
  let token: Address
  let deployedAt: bigint
  beforeAll(async () => {
    h = await startHarness()
    const deployed = await h.deployToken(1000n)
    token = new Address(hexToBytes(deployed.address))
    deployedAt = deployed.block.number
    await h.transferToken(deployed.address, BOB, 5n)
    await h.mine()
  })
  afterAll(() => h?.close())

  const stateAt = (n: bigint) => {
    const upstream = new UpstreamClient(h.service.url)
    return { upstream, state: new UpstreamStateManager(new UpstreamSnapshot(upstream, n), h.chain.common) }
  }

  test('reads accounts, code and storage as of the block asked for, not the latest', async () => {
    const alice = new Address(hexToBytes(h.alice.address))
    const before = stateAt(deployedAt - 1n).state
    const after = stateAt(deployedAt).state
    const leaderAt = (n: bigint) => h.chain.stateAt(h.chain.store.byNumber(n)!.header.stateRoot)
    for (const [ours, n] of [
      [before, deployedAt - 1n],
      [after, deployedAt],
    ] as const) {
      const theirs = leaderAt(n)
      for (const address of [alice, token]) {
        const [a, b] = [await ours.getAccount(address), await theirs.getAccount(address)]
        expect([a?.nonce, a?.balance, a && bytesToHex(a.codeHash)]).toEqual([
          b?.nonce,
          b?.balance,
          b && bytesToHex(b.codeHash),
        ])
        expect(await ours.getCode(address)).toEqual(await theirs.getCode(address))
        expect(await ours.getStorage(address, slot(0))).toEqual(await theirs.getStorage(address, slot(0)))
      }
    }
    expect(await before.getAccount(token)).toBeUndefined()
    expect((await after.getStorage(token, slot(0))).length).toBeGreaterThan(0) // totalSupply, stripped of zeros
  })

  test('a storage write reverted after a nested checkpoint committed stays reverted', async () => {
    const { state } = stateAt(h.chain.store.height)
    const upstreamValue = await state.getStorage(token, slot(0))
    await state.checkpoint()
    await state.putStorage(token, slot(0), Uint8Array.of(1))
    await state.checkpoint()
    await state.putStorage(token, slot(7), Uint8Array.of(2))
    await state.putAccount(token, new Account(9n, 9n))
    await state.commit()
    expect(await state.getStorage(token, slot(7))).toEqual(Uint8Array.of(2))
    await state.revert()
    expect(await state.getStorage(token, slot(0))).toEqual(upstreamValue)
    expect(await state.getStorage(token, slot(7))).toEqual(new Uint8Array())
    expect((await state.getAccount(token))?.nonce).toBe(1n)
    expect(state._checkpointCount).toBe(0)
  })

  test('a deleted or cleared account reads no code and zero storage, whatever the upstream has, until reverted', async () => {
    const { state } = stateAt(h.chain.store.height)
    const code = await state.getCode(token)
    await state.checkpoint()
    await state.deleteAccount(token)
    expect(await state.getAccount(token)).toBeUndefined()
    expect(await state.getCode(token)).toEqual(new Uint8Array())
    expect(await state.getStorage(token, slot(0))).toEqual(new Uint8Array())
    await state.revert()
    expect(await state.getCode(token)).toEqual(code)
    await state.clearStorage(token)
    expect(await state.getStorage(token, slot(0))).toEqual(new Uint8Array())
    expect(await state.getCode(token)).toEqual(code)
  })

  test('a copy keeps the state as it stood and does not see later writes', async () => {
    const { state } = stateAt(h.chain.store.height)
    await state.putStorage(token, slot(3), Uint8Array.of(3))
    const copy = state.shallowCopy()
    await state.putStorage(token, slot(3), Uint8Array.of(4))
    expect(await copy.getStorage(token, slot(3))).toEqual(Uint8Array.of(3))
    expect(copy.common.chainId()).toBe(196n)
  })

  test('a read the upstream answered already comes without a promise (what the interpreter reads so), one it has not is the load, with the same answer', async () => {
    const { state } = stateAt(deployedAt)
    const alice = new Address(hexToBytes(h.alice.address))
    const nobody = new Address(hexToBytes('0x00000000000000000000000000000000000dead1'))
    const asked = state.snapshot.stats.calls
    const cold = [state.readAccount(token), state.readCode(token), state.readStorage(token, slot(0))]
    expect(cold.every((read) => read instanceof Promise)).toBe(true)
    const [account, code, value] = await Promise.all(cold)
    // loaded: the same values, at hand, and nothing more asked of the upstream
    const calls = state.snapshot.stats.calls
    const warm = [state.readAccount(token), state.readCode(token), state.readStorage(token, slot(0))]
    expect(warm.some((read) => read instanceof Promise)).toBe(false)
    expect(warm).toEqual([account, code, value])
    expect(state.snapshot.stats.calls).toBe(calls)
    expect(calls).toBeGreaterThan(asked)
    // an account the upstream has not: null once loaded, as getAccount's undefined
    await state.readAccount(nobody)
    expect(state.readAccount(nobody)).toBeNull()
    expect(await state.getAccount(nobody)).toBeUndefined()
    // a local write answers at once, over what was loaded
    await state.putStorage(token, slot(0), Uint8Array.of(7))
    expect(state.readStorage(token, slot(0))).toEqual(Uint8Array.of(7))
    await state.putAccount(alice, new Account(1n, 2n))
    expect((state.readAccount(alice) as Account).balance).toBe(2n)
  })

  test('reads made together go in one batch, and a prefetch of 40 accounts costs 2 requests (3 calls each, 100 a batch)', async () => {
    const { state } = stateAt(h.chain.store.height)
    const addresses = Array.from({ length: 40 }, (_, i) => new Address(setLengthLeft(Uint8Array.of(i + 1), 20)))
    await state.snapshot.prefetch(addresses.map((a) => a.bytes))
    expect(state.snapshot.stats.requests).toBe(2)
    expect(state.snapshot.stats).toEqual({ requests: 2, calls: 120 })
    await Promise.all(addresses.map((a) => state.getAccount(a))) // cached: no request
    await Promise.all([state.getStorage(token, slot(0)), state.getStorage(token, slot(1)), state.getCode(token)])
    expect(state.snapshot.stats.requests).toBe(3)
  })
})

describe('finding a flashblock’s reads on a stalled upstream', () => {
  test('gives up with the upstream’s failure once the runs settled, so the real run does not ask and wait again', async () => {
    const h = await startHarness()
    const upstream = await startStallingUpstream(h.service.url)
    try {
      const deployed = await h.deployToken(1000n)
      await h.mine()
      const token = hexToBytes(deployed.address)
      const sender = hexToBytes(h.alice.address)
      // the prefetch before the stall must be answered within the deadline too: long enough for a busy machine
      const snapshot = new UpstreamSnapshot(
        new UpstreamClient(upstream.url, { timeoutMs: 2_000 }),
        h.chain.store.height,
      )
      const state = new UpstreamStateManager(snapshot, h.chain.common)
      await snapshot.prefetch([sender, token])
      const vm = await createVM({ common: throwawayVmCommon(h.chain.common), stateManager: state })
      const data = hexToBytes(encodeFunctionData({ abi: testToken.abi, functionName: 'transfer', args: [BOB, 1n] }))
      const tx = createLegacyTx({ to: token, data, gasLimit: 100_000n, gasPrice: 10n ** 10n })
      upstream.stall()
      await expect(discoverReads(vm.evm as EVM, [{ tx, sender } as unknown as TxRecord])).rejects.toThrow(
        /no answer within 2000 ms/,
      )
      expect(upstream.stalled.length).toBe(1)
    } finally {
      await upstream.close()
      await h.close()
    }
  })
})
