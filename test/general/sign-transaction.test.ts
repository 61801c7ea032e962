/**
 * eth_signTransaction: a dev account signs what eth_sendTransaction would send, filled the same way, and the
 * node answers geth's `{raw, tx}` (execution-apis' SignTransactionResult) without sending it. The bytes are checked with viem (an independent decoder
 * and ecrecover), sent with eth_sendRawTransaction and mined; anvil signs the same bytes and answers them bare.
 */
import {
  type Hex,
  keccak256,
  parseEther,
  parseTransaction,
  recoverTransactionAddress,
  type TransactionSerialized,
} from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { ExecutionApisSpec } from '../../src/conformance/rpc-compat/spec.js'
import { nextBaseFee } from '../../src/opstack/base-fee.js'
import { type RunningFollower, type RunningService, startService } from '../../src/service.js'
import { type RunningAnvil, startAnvil } from '../support/anvil.js'
import { BOB, CAROL } from '../support/dev-keys.js'
import { type Harness, startHarness } from '../support/harness.js'
import { rpc } from '../support/rpc.js'

const executionApis = new ExecutionApisSpec(new URL('../fixtures/rpc-compat/spec', import.meta.url).pathname)
const STRANGER: Hex = '0x000000000000000000000000000000000000dead'
const X: Hex = '0x00000000000000000000000000000000000a11ce'

interface Signed {
  raw: TransactionSerialized
  tx: Record<string, unknown>
}

describe('eth_signTransaction with a dev account', () => {
  let h: Harness

  beforeAll(async () => {
    h = await startHarness()
  })
  afterAll(() => h?.close())

  /** The answer, checked against execution-apis' own result schema (SignTransactionResult) on the way. */
  const sign = async (request: Record<string, unknown>) => {
    const reply = await h.rpc('general', 'eth_signTransaction', [request])
    expect(reply.error).toBeUndefined()
    expect(executionApis.check('eth_signTransaction', reply.result)).toBeUndefined()
    return reply.result as Signed
  }

  test('signs the requested fields, filled as eth_sendTransaction fills them, by the account in `from`', async () => {
    const { raw, tx } = await sign({ from: CAROL, to: BOB, value: '0xde0b6b3a7640000', input: '0xc0ffee' })
    const decoded = parseTransaction(raw)
    const nonce = await h.general.getTransactionCount({ address: CAROL, blockTag: 'pending' })
    const baseFee = nextBaseFee(h.chain.store.latest().header)
    expect(decoded).toMatchObject({
      type: 'eip1559',
      chainId: 196,
      nonce,
      to: BOB,
      value: parseEther('1'),
      data: '0xc0ffee',
      maxPriorityFeePerGas: 10n ** 9n,
      maxFeePerGas: 2n * baseFee + 10n ** 9n,
      gas: await h.general.estimateGas({ account: CAROL, to: BOB, value: parseEther('1'), data: '0xc0ffee' }),
    })
    expect((await recoverTransactionAddress({ serializedTransaction: raw })).toLowerCase()).toBe(CAROL)
    // `tx` is the same transaction, with the hash eth_sendRawTransaction will answer
    expect(tx).toMatchObject({
      type: '0x2',
      from: CAROL,
      to: BOB,
      nonce: `0x${nonce.toString(16)}`,
      value: '0xde0b6b3a7640000',
      input: '0xc0ffee',
      chainId: '0xc4',
      hash: keccak256(raw),
      yParity: `0x${decoded.yParity}`,
    })
    expect([BigInt(tx.r as Hex), BigInt(tx.s as Hex)]).toEqual([BigInt(decoded.r!), BigInt(decoded.s!)])
  })

  test('sends nothing: the pool and the nonce are as before', async () => {
    const before = await h.general.getTransactionCount({ address: CAROL, blockTag: 'pending' })
    const { tx } = await sign({ from: CAROL, to: BOB, value: '0x1' })
    expect((await h.rpc('general', 'eth_getTransactionByHash', [tx.hash])).result).toBeNull()
    expect(await h.general.getTransactionCount({ address: CAROL, blockTag: 'pending' })).toBe(before)
  })

  test('its bytes sent with eth_sendRawTransaction are mined with the receipt the request asked for', async () => {
    const value = parseEther('0.25')
    const { raw, tx } = await sign({ from: CAROL, to: BOB, value: `0x${value.toString(16)}` })
    const balance = await h.general.getBalance({ address: BOB })
    const hash = (await h.rpc('general', 'eth_sendRawTransaction', [raw])).result as Hex
    expect(hash).toBe(tx.hash)
    await h.mine()
    const receipt = await h.general.getTransactionReceipt({ hash })
    expect(receipt).toMatchObject({ status: 'success', from: CAROL, to: BOB, gasUsed: 21_000n, type: 'eip1559' })
    expect(await h.general.getBalance({ address: BOB })).toBe(balance + value)
  })

  test("a request with gasPrice is signed as a legacy transaction with EIP-155's v", async () => {
    const { raw, tx } = await sign({ from: CAROL, to: BOB, value: '0x2', gasPrice: '0xb2d05e00' })
    expect(parseTransaction(raw)).toMatchObject({ type: 'legacy', chainId: 196, gasPrice: 3n * 10n ** 9n })
    expect(tx.type).toBe('0x0')
    expect(['0x1ab', '0x1ac']).toContain(tx.v) // 196 * 2 + 35 + recovery bit
    expect(tx).not.toHaveProperty('yParity')
  })

  test('answers `unknown account` for an address it holds no key for, an impersonated one included, as eth_sendTransaction', async () => {
    await h.rpc('general', 'anvil_impersonateAccount', [X])
    for (const from of [STRANGER, X]) {
      const request = { from, to: BOB, value: '0x1' }
      const unknown = { code: -32000, message: 'unknown account' }
      expect((await h.rpc('general', 'eth_signTransaction', [request])).error).toEqual(unknown)
      if (from === STRANGER) expect((await h.rpc('general', 'eth_sendTransaction', [request])).error).toEqual(unknown)
    }
    await h.rpc('general', 'anvil_stopImpersonatingAccount', [X])
    expect((await h.rpc('general', 'eth_signTransaction', [{ to: BOB, value: '0x1' }])).error?.message).toBe(
      'unknown account',
    )
  })

  test('answers -32602 naming what is wrong with the request', async () => {
    const refused = async (params: unknown[]) => (await h.rpc('general', 'eth_signTransaction', params)).error
    expect(await refused([])).toEqual({ code: -32602, message: 'missing value for required argument 0 (transaction)' })
    expect(await refused([{ from: CAROL, to: '0x1234' }])).toMatchObject({
      code: -32602,
      message: expect.stringMatching(/^invalid argument 0 \(transaction\): field "to"/),
    })
    expect(await refused([{ from: CAROL, to: BOB, gas: '0x05208' }])).toEqual({
      code: -32602,
      message: 'invalid argument 0 (transaction): field "gas": hex quantity has leading zeros',
    })
  })

  test("answers a foreign chain id as eth_sendTransaction does (geth's text)", async () => {
    const request = { from: CAROL, to: BOB, chainId: '0x1' }
    const signed = await h.rpc('general', 'eth_signTransaction', [request])
    expect(signed.error).toEqual({ code: -32000, message: "chainId does not match node's (have=1, want=196)" })
    expect((await h.rpc('general', 'eth_sendTransaction', [request])).error).toEqual(signed.error)
  })
})

describe('eth_signTransaction beside anvil', () => {
  let anvil: RunningAnvil
  let service: RunningService

  beforeAll(async () => {
    ;[anvil, service] = await Promise.all([startAnvil(), startService({ port: 0, quiet: true, rateLimit: 0 })])
  })
  afterAll(async () => {
    anvil?.close()
    await service?.close()
  })

  test('signs the same bytes anvil signs, which anvil answers bare and this service as `raw`', async () => {
    const request = { from: CAROL, to: BOB, value: '0x1', nonce: '0x0', gas: '0x5208', gasPrice: '0x3b9aca00' }
    const ours = (await rpc(service.url, 'eth_signTransaction', [request])).result as Signed
    const theirs = (await rpc(anvil.url, 'eth_signTransaction', [request])).result
    expect(ours.raw).toBe(theirs)
    // the shapes: execution-apis specifies geth's object, which anvil's bare string is not
    expect(executionApis.check('eth_signTransaction', ours)).toBeUndefined()
    expect(executionApis.check('eth_signTransaction', theirs)).toMatch(/^result does not fit the spec/)
  })
})

describe('eth_signTransaction in follower mode', () => {
  let leader: RunningService
  let follower: RunningFollower

  beforeAll(async () => {
    leader = await startService({ port: 0, quiet: true, rateLimit: 0, mining: false })
    follower = await startService({ port: 0, quiet: true, rateLimit: 0, upstream: leader.url })
  })
  afterAll(async () => {
    await follower?.close()
    await leader?.close()
  })

  test('answers `unknown account`, as every signing method there: a follower holds no keys', async () => {
    const unknown = { code: -32000, message: 'unknown account' }
    const request = { from: CAROL, to: BOB, value: '0x1' }
    expect((await rpc(follower.url, 'eth_signTransaction', [request])).error).toEqual(unknown)
    expect((await rpc(follower.url, 'eth_sign', [CAROL, '0x00'])).error).toEqual(unknown)
    // the leader holds the key: the refusal is the follower's
    expect((await rpc(leader.url, 'eth_signTransaction', [request])).error).toBeUndefined()
  })
})
