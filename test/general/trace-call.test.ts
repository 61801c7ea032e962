import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { type Hex, encodeFunctionData, pad, toHex } from 'viem'
import { BOB, CAROL } from '../support/dev-keys.js'
import { blockEnv, testToken, TRANSFER_TOPIC } from '../support/fixtures.js'
import { type Harness, startHarness } from '../support/harness.js'

type CallFrame = {
  type: string
  from: string
  to: string
  gas: string
  gasUsed: string
  input: string
  output?: string
  error?: string
  revertReason?: string
  calls?: CallFrame[]
  logs?: { address: string; topics: string[] }[]
}
type StructLogs = { gas: number; failed: boolean; returnValue: string; structLogs: { op: string; stack?: string[] }[] }
type Account = { balance?: string; nonce?: number; code?: string; storage?: Record<string, string> }

const token = (functionName: string, args: unknown[] = []) =>
  encodeFunctionData({ abi: testToken.abi, functionName, args } as never)
const COUNTER_SLOT = pad('0x1', { size: 32 })

/** debug_traceCall through the real service: geth's parameters, the three tracers, overrides, both endpoints. */
describe('tracing a call', () => {
  let h: Harness
  let address: Hex
  let env: Hex
  const trace = (
    call: object,
    block: unknown = 'latest',
    options?: object,
    endpoint: 'general' | 'flashblocks' = 'general',
  ) => h.rpc(endpoint, 'debug_traceCall', options ? [call, block, options] : [call, block])

  beforeAll(async () => {
    h = await startHarness()
    address = (await h.deployToken(1000n)).address
    const hash = await h.wallet.deployContract({
      abi: blockEnv.abi,
      bytecode: blockEnv.bytecode,
      gas: 1_000_000n,
      ...h.fees(),
    })
    await h.mine()
    env = (await h.general.getTransactionReceipt({ hash })).contractAddress!
  })
  afterAll(() => h?.close())

  test('the struct logger by default: every opcode of the call, and nothing it wrote kept', async () => {
    const call = { from: h.alice.address, to: address, data: token('increment') }
    const { result } = await trace(call)
    const logs = result as StructLogs
    expect(logs.failed).toBe(false)
    expect(BigInt(logs.returnValue)).toBe(1n)
    expect(logs.structLogs.some((l) => l.op === 'SSTORE')).toBe(true)
    expect(logs.structLogs.at(-1)!.op).toBe('RETURN')
    // the call ran with the whole block gas limit: its gas used is what it needs, which an estimate finds
    expect(BigInt(logs.gas)).toBeLessThanOrEqual(
      await h.general.estimateGas({ account: h.alice.address, to: address, data: token('increment') }),
    )
    const bare = (await trace(call, 'latest', { disableStack: true })).result as StructLogs
    expect(bare.structLogs.map((l) => l.op)).toEqual(logs.structLogs.map((l) => l.op))
    expect(bare.structLogs.every((l) => l.stack === undefined)).toBe(true)
    // a call is never kept: the counter is still zero
    expect(BigInt((await h.general.call({ to: address, data: token('counter') })).data!)).toBe(0n)
  })

  test('the callTracer: nested frames, only the top one when asked, logs with withLog', async () => {
    const spawn = (
      await trace({ from: h.alice.address, to: address, data: token('spawn'), gas: toHex(500_000) }, 'latest', {
        tracer: 'callTracer',
      })
    ).result as CallFrame
    expect(spawn).toMatchObject({
      type: 'CALL',
      from: h.alice.address.toLowerCase(),
      to: address.toLowerCase(),
    })
    // the top frame's gas is what the call had after intrinsic gas, as anvil (geth reports the gas limit)
    expect(BigInt(spawn.gas)).toBe(500_000n - 21_064n)
    expect(spawn.calls!.map((c) => c.type)).toEqual(['CREATE', 'CALL'])
    const top = (
      await trace({ to: address, data: token('spawn') }, 'latest', {
        tracer: 'callTracer',
        tracerConfig: { onlyTopCall: true },
      })
    ).result as CallFrame
    expect(top.calls).toBeUndefined()
    const transfer = (
      await trace({ from: h.alice.address, to: address, data: token('transfer', [BOB, 5n]) }, 'latest', {
        tracer: 'callTracer',
        tracerConfig: { withLog: true },
      })
    ).result as CallFrame
    expect(transfer.logs!.map((l) => l.topics[0])).toEqual([TRANSFER_TOPIC])
  })

  test('a revert is a result: the frame’s error and reason, or the struct logger’s failed', async () => {
    const call = { from: CAROL, to: address, data: token('transfer', [BOB, 10n ** 30n]) }
    const frame = (await trace(call, 'latest', { tracer: 'callTracer' })).result as CallFrame
    expect(frame).toMatchObject({ error: 'execution reverted', revertReason: 'insufficient balance' })
    expect(((await trace(call)).result as StructLogs).failed).toBe(true)
  })

  test('the prestateTracer: what the call read, and in diffMode what it would change', async () => {
    const call = { from: h.alice.address, to: address, data: token('increment') }
    const pre = (await trace(call, 'latest', { tracer: 'prestateTracer' })).result as Record<string, Account>
    expect(pre[address.toLowerCase()]!.storage).toEqual({ [COUNTER_SLOT]: pad('0x0', { size: 32 }) })
    const nonce = await h.general.getTransactionCount({ address: h.alice.address })
    expect(pre[h.alice.address.toLowerCase()]!.nonce).toBe(nonce)
    const diff = (await trace(call, 'latest', { tracer: 'prestateTracer', tracerConfig: { diffMode: true } }))
      .result as {
      pre: Record<string, Account>
      post: Record<string, Account>
    }
    expect(diff.post[address.toLowerCase()]).toEqual({ storage: { [COUNTER_SLOT]: pad('0x1', { size: 32 }) } })
    expect(diff.post[h.alice.address.toLowerCase()]).toEqual({ nonce: nonce + 1 })
  })

  test('stateOverrides and blockOverrides in the config: the traced call sees both', async () => {
    const call = { from: h.alice.address, to: address, data: token('increment') }
    const diff = (
      await trace(call, 'latest', {
        tracer: 'prestateTracer',
        tracerConfig: { diffMode: true },
        stateOverrides: { [address]: { stateDiff: { [COUNTER_SLOT]: pad('0x29', { size: 32 }) } } },
      })
    ).result as { pre: Record<string, Account>; post: Record<string, Account> }
    expect(diff.pre[address.toLowerCase()]!.storage).toEqual({ [COUNTER_SLOT]: pad('0x29', { size: 32 }) })
    expect(diff.post[address.toLowerCase()]!.storage).toEqual({ [COUNTER_SLOT]: pad('0x2a', { size: 32 }) })
    const head = await h.general.getBlock()
    const hashOf = (n: bigint) => encodeFunctionData({ abi: blockEnv.abi, functionName: 'hashOf', args: [n] })
    // geth: with `number` the block's plus one, BLOCKHASH of the block itself is its hash (eth_call answers zero)
    const next = { tracer: 'callTracer', blockOverrides: { number: toHex(head.number + 1n) } }
    expect(((await trace({ to: env, data: hashOf(head.number) }, 'latest', next)).result as CallFrame).output).toBe(
      head.hash,
    )
    const far = { tracer: 'callTracer', blockOverrides: { number: toHex(head.number + 2n) } }
    expect(
      BigInt(((await trace({ to: env, data: hashOf(head.number) }, 'latest', far)).result as CallFrame).output!),
    ).toBe(0n)
  })

  test('pending is the preconfirmed state on /flashblocks and the latest block on /', async () => {
    await h.wallet.writeContract({ address, abi: testToken.abi, functionName: 'increment', gas: 100_000n, ...h.fees() })
    await h.chain.buildNow()
    const call = { from: h.alice.address, to: address, data: token('counter') }
    const output = async (endpoint: 'general' | 'flashblocks') =>
      BigInt(((await trace(call, 'pending', { tracer: 'callTracer' }, endpoint)).result as CallFrame).output!)
    expect(await output('flashblocks')).toBe(1n)
    expect(await output('general')).toBe(0n)
    await h.chain.sealNow()
    expect(await output('general')).toBe(1n)
  })

  test('a block by number or hash; geth’s errors for a block it does not have', async () => {
    const block = await h.general.getBlock()
    const call = { to: address, data: token('counter') }
    const byHash = await trace(call, block.hash, { tracer: 'callTracer' })
    expect(byHash.result).toEqual((await trace(call, toHex(block.number), { tracer: 'callTracer' })).result)
    expect((await trace(call, '0xffff')).error).toEqual({ code: -32000, message: 'block #65535 not found' })
    const missing = `0x${'ab'.repeat(32)}`
    expect((await trace(call, missing)).error).toEqual({ code: -32000, message: `block ${missing} not found` })
  })

  test('txIndex: the state before that transaction of the block, as geth; its errors', async () => {
    const increment = () =>
      h.wallet.writeContract({ address, abi: testToken.abi, functionName: 'increment', gas: 100_000n, ...h.fees() })
    const first = await increment()
    const second = await increment()
    const block = await h.general.getBlock({ blockNumber: (await h.mine()).number })
    const before = BigInt(
      (await h.general.call({ to: address, data: token('counter'), blockNumber: block.number - 1n })).data!,
    )
    const index = async (hash: Hex) => (await h.general.getTransactionReceipt({ hash })).transactionIndex
    const counterAt = async (txIndex?: number) => {
      const options = { tracer: 'callTracer', ...(txIndex === undefined ? {} : { txIndex: toHex(txIndex) }) }
      const { result } = await trace({ to: address, data: token('counter') }, toHex(block.number), options)
      return BigInt((result as CallFrame).output!)
    }
    expect(await counterAt(await index(first))).toBe(before)
    expect(await counterAt(await index(second))).toBe(before + 1n)
    expect(await counterAt()).toBe(before + 2n)
    const count = block.transactions.length
    expect((await trace({ to: address }, toHex(block.number), { txIndex: toHex(count) })).error).toEqual({
      code: -32000,
      message: `transaction index ${count} out of range for block ${block.hash}`,
    })
    expect((await trace({ to: address }, '0x0', { txIndex: '0x0' })).error).toEqual({
      code: -32000,
      message: 'no transaction in genesis',
    })
  })

  test('bad parameters: -32602 naming the field; geth’s errors for an override it refuses', async () => {
    const call = { to: address, data: token('counter') }
    expect((await trace(call, 'latest', { tracer: 'fourByteTracer' })).error).toEqual({
      code: -32602,
      message:
        'invalid argument 2 (options): field "tracer": expected one of "callTracer", "prestateTracer", got "fourByteTracer"',
    })
    expect((await trace(call, 'latest', { stateOverrides: { [address]: { balance: 'lots' } } })).error).toMatchObject({
      code: -32602,
      message: expect.stringContaining('field "stateOverrides.'),
    })
    expect((await trace(call, 'latest', { blockOverrides: { time: '0x01' } })).error).toEqual({
      code: -32602,
      message: 'invalid argument 2 (options): field "blockOverrides.time": hex quantity has leading zeros',
    })
    expect((await trace(call, 'latest', { blockOverrides: { withdrawals: [] } })).error).toEqual({
      code: -32000,
      message: 'block override "withdrawals" is not supported for this RPC method',
    })
    const both = { [address]: { state: {}, stateDiff: {} } }
    expect((await trace(call, 'latest', { stateOverrides: both })).error).toEqual({
      code: -32000,
      message: `account ${address.toLowerCase()} has both 'state' and 'stateDiff'`,
    })
  })

  test('a trace past its timeout stops with the timeout error', async () => {
    // an endless loop as the callee's code: JUMPDEST PUSH1 0 JUMP
    const loop = { [CAROL]: { code: '0x5b600056' } }
    const { error } = await trace({ to: CAROL, gas: toHex(10_000_000) }, 'latest', {
      timeout: '50ms',
      stateOverrides: loop,
    })
    expect(error).toEqual({ code: -32002, message: 'execution aborted (timeout = 50ms)' })
    expect((await h.rpc('general', 'eth_chainId', [])).result).toBe('0xc4')
  })
})
