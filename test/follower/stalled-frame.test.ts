import { bytesToHex, hexToBytes, setLengthLeft } from '@ethereumjs/util'
import { encodeDeployData, encodeFunctionData } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { Reexecutor } from '../../src/follower/reexecute.js'
import { UpstreamClient } from '../../src/follower/upstream-client.js'
import { UpstreamSnapshot } from '../../src/follower/upstream-snapshot.js'
import { testToken } from '../support/fixtures.js'
import { type Harness, startHarness } from '../support/harness.js'
import { overTheWire } from '../support/over-the-wire.js'
import { signTx } from '../support/sign-tx.js'
import { type StallingUpstream, startStallingUpstream } from '../support/stalling-upstream.js'

describe('a flashblock whose transactions’ reads meet a stalled upstream', () => {
  let h: Harness
  let upstream: StallingUpstream
  let token: Uint8Array
  let nonce = 0
  const send = async (fields: Parameters<typeof signTx>[2] extends infer F ? Omit<F & object, 'nonce'> : never) =>
    h.chain.sendRawTransaction(await signTx(h.chain, 1, { ...fields, nonce: nonce++ }))
  const transfer = (to: Uint8Array) =>
    send({
      to: token,
      gas: 100_000n,
      data: hexToBytes(
        encodeFunctionData({
          abi: testToken.abi,
          functionName: 'transfer',
          args: [bytesToHex(to) as `0x${string}`, 1n],
        }),
      ),
    })

  beforeAll(async () => {
    h = await startHarness()
    upstream = await startStallingUpstream(h.service.url)
    await send({
      to: null,
      gas: 2_000_000n,
      data: hexToBytes(encodeDeployData({ abi: testToken.abi, bytecode: testToken.bytecode, args: [10n ** 6n] })),
    })
    token = (await h.chain.mine()).receipts[1].contractAddress!
  })
  afterAll(async () => {
    await upstream?.close()
    await h?.close()
  })

  test('is dropped after one --upstream-timeout and counted, and the log names the upstream’s failure, not an engine fault', async () => {
    const warnings: string[] = []
    const reexecutor = new Reexecutor({
      common: h.chain.common,
      upstream: new UpstreamClient(upstream.url, { timeoutMs: 2_000 }),
      warn: (m) => warnings.push(m),
    })
    const canonical = h.chain.store.height
    // the first frame makes the sender, the token and the fee recipient known: the next one needs no discovery
    await transfer(h.chain.accounts[2].address)
    const first = await h.chain.buildNow()
    // five transfers to new holders: each reads a balance slot the upstream was never asked for
    for (let i = 1; i <= 5; i++) await transfer(setLengthLeft(Uint8Array.of(0xee, i), 20))
    const second = await h.chain.buildNow()
    expect(second.executed.txs).toHaveLength(5)
    // both frames are built before the first is applied (as reexecute.test.ts does): the first is read in full
    expect((await reexecutor.apply(overTheWire(first), canonical)).kind).toBe('applied')
    upstream.stall()
    const result = await reexecutor.apply(overTheWire(second), canonical)
    expect(result).toMatchObject({
      kind: 'dropped',
      reason: expect.stringMatching(/unavailable: no answer within 2000 ms/),
    })
    expect(upstream.stalled).toEqual([['eth_getStorageAt']])
    expect(reexecutor.stats).toMatchObject({ flashblocks: 1, failures: 1 })
    expect(warnings).toEqual([expect.stringMatching(/#1: upstream .* unavailable: no answer within 2000 ms/)])
    // the block in progress is forgotten, as for any frame that cannot be re-executed: its next frame waits for index 0
    expect(reexecutor.position).toBeUndefined()
  }, 60_000)

  test('within a frame, reads made one after another after a stall fail at once with its error; after the frame they ask again', async () => {
    const stalling = await startStallingUpstream(h.service.url)
    try {
      const snapshot = new UpstreamSnapshot(
        new UpstreamClient(stalling.url, { timeoutMs: 1_000 }),
        h.chain.store.height,
      )
      stalling.stall()
      const failures: string[] = []
      // as transactions executed in turn would: each read waits for the one before
      const frame = snapshot.frame(async () => {
        for (let i = 1; i <= 5; i++)
          await snapshot.storage(token, setLengthLeft(Uint8Array.of(i), 32)).catch((e: Error) => {
            failures.push(e.message)
          })
      })
      await expect(frame).rejects.toThrow(/unavailable: no answer within 1000 ms/)
      expect(failures).toHaveLength(5)
      expect(new Set(failures).size).toBe(1)
      expect(stalling.stalled).toEqual([['eth_getStorageAt']])
      // the next frame (the upstream may be back) asks again
      await expect(snapshot.storage(token, setLengthLeft(Uint8Array.of(1), 32))).rejects.toThrow(/no answer/)
      expect(stalling.stalled).toHaveLength(2)
    } finally {
      await stalling.close()
    }
  }, 60_000)
})
