import { type Hex, encodeFunctionData, toHex } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { BOB } from '../support/dev-keys.js'
import { testToken } from '../support/fixtures.js'
import { type Harness, startHarness } from '../support/harness.js'

type CallFrame = {
  type: string
  from: string
  to: string
  input: string
  output?: string
  gasUsed: string
  calls?: CallFrame[]
  logs?: unknown[]
}
type StructLogs = {
  gas: number
  failed: boolean
  returnValue: string
  structLogs: { op: string; stack?: string[]; storage?: object }[]
}

/** debug_trace* through the real service: which block and transaction they find, and geth's output shapes. */
describe('tracing transactions and blocks', () => {
  let h: Harness
  let token: Hex
  let spawn: Hex
  let transfer: Hex
  let blockNumber: bigint
  let blockHash: Hex

  beforeAll(async () => {
    h = await startHarness()
    token = (await h.deployToken(1000n)).address
    transfer = await h.transferToken(token, BOB, 5n)
    spawn = await h.wallet.writeContract({
      address: token,
      abi: testToken.abi,
      functionName: 'spawn',
      gas: 500_000n,
      ...h.fees(),
    })
    const block = await h.mine()
    blockNumber = block.number
    blockHash = toHex(block.hash)
  })
  afterAll(() => h?.close())

  test('traces a transaction with the struct logger by default', async () => {
    const { result, error } = await h.rpc('general', 'debug_traceTransaction', [transfer])
    expect(error).toBeUndefined()
    const trace = result as StructLogs
    expect(trace.failed).toBe(false)
    expect(trace.returnValue).toMatch(/0*1$/)
    expect(trace.structLogs.length).toBeGreaterThan(50)
    expect(trace.structLogs.some((l) => l.op === 'SSTORE')).toBe(true)
    expect(trace.structLogs.at(-1)!.op).toBe('RETURN')
    const receipt = await h.general.getTransactionReceipt({ hash: transfer })
    expect(BigInt(trace.gas)).toBe(receipt.gasUsed)
  })

  test('honours the struct logger options: the same steps, without stack or storage', async () => {
    const full = ((await h.rpc('general', 'debug_traceTransaction', [transfer])).result as StructLogs).structLogs
    const { result } = await h.rpc('general', 'debug_traceTransaction', [
      transfer,
      { disableStack: true, disableStorage: true },
    ])
    const logs = (result as StructLogs).structLogs
    expect(logs.map((l) => l.op)).toEqual(full.map((l) => l.op))
    expect(full.some((l) => l.stack !== undefined) && full.some((l) => l.storage !== undefined)).toBe(true)
    expect(logs.every((l) => l.stack === undefined && l.storage === undefined)).toBe(true)
  })

  test("the prestateTracer's state before a transaction holds the block's transactions before it", async () => {
    const [first, second] = await Promise.all(
      [transfer, spawn].map((hash) => h.general.getTransaction({ hash: hash as Hex })),
    )
    expect(second.blockNumber).toBe(first.blockNumber)
    expect(second.transactionIndex).toBe(first.transactionIndex + 1)
    const sender = first.from.toLowerCase()
    const receipt = await h.general.getTransactionReceipt({ hash: transfer })
    const before = await h.general.getBalance({ address: first.from, blockNumber: blockNumber - 1n })
    const pre = (await h.rpc('general', 'debug_traceTransaction', [spawn, { tracer: 'prestateTracer' }]))
      .result as Record<string, { balance: Hex; nonce?: number }>
    expect(pre[sender]!.nonce).toBe(first.nonce + 1)
    expect(BigInt(pre[sender]!.balance)).toBe(before - receipt.gasUsed * receipt.effectiveGasPrice)
    const diff = (
      await h.rpc('general', 'debug_traceTransaction', [
        spawn,
        { tracer: 'prestateTracer', tracerConfig: { diffMode: true } },
      ])
    ).result as { pre: Record<string, { nonce?: number }>; post: Record<string, { nonce?: number }> }
    expect(diff.pre[sender]!.nonce).toBe(first.nonce + 1)
    expect(diff.post[sender]!.nonce).toBe(first.nonce + 2)
  })

  test('traces nested calls with the callTracer, and only the top call when asked', async () => {
    const { result } = await h.rpc('general', 'debug_traceTransaction', [spawn, { tracer: 'callTracer' }])
    const top = result as CallFrame
    expect(top.type).toBe('CALL')
    expect(top.to).toBe(token.toLowerCase())
    expect(top.input).toBe(encodeFunctionData({ abi: testToken.abi, functionName: 'spawn' }))
    expect(top.calls!.map((c) => c.type)).toEqual(['CREATE', 'CALL'])
    const only = (
      await h.rpc('general', 'debug_traceTransaction', [
        spawn,
        { tracer: 'callTracer', tracerConfig: { onlyTopCall: true } },
      ])
    ).result as CallFrame
    expect(only.calls).toBeUndefined()
  })

  test('traces every transaction of a block by number and by hash, in order', async () => {
    const byNumber = (
      await h.rpc('general', 'debug_traceBlockByNumber', [toHex(blockNumber), { tracer: 'callTracer' }])
    ).result as { txHash: Hex; result: CallFrame }[]
    // the L1-info deposit first: a call from the depositor to L1Block
    expect(byNumber.map((t) => t.txHash).slice(1)).toEqual([transfer, spawn])
    expect(byNumber[0]!.result).toMatchObject({
      type: 'CALL',
      from: '0xdeaddeaddeaddeaddeaddeaddeaddeaddead0001',
      to: '0x4200000000000000000000000000000000000015',
    })
    const byHash = (await h.rpc('general', 'debug_traceBlockByHash', [blockHash, { tracer: 'callTracer' }])).result
    expect(byHash).toEqual(byNumber)
  })

  test("answers geth's errors for what it cannot find or trace", async () => {
    const missing = `0x${'ab'.repeat(32)}`
    expect((await h.rpc('general', 'debug_traceTransaction', [missing])).error).toEqual({
      code: -32000,
      message: 'transaction not found',
    })
    expect((await h.rpc('general', 'debug_traceBlockByNumber', ['0xffff'])).error).toEqual({
      code: -32000,
      message: 'block #65535 not found',
    })
    expect((await h.rpc('general', 'debug_traceBlockByHash', [missing])).error).toEqual({
      code: -32000,
      message: `block ${missing} not found`,
    })
    expect((await h.rpc('general', 'debug_traceBlockByNumber', ['0x0'])).error).toEqual({
      code: -32000,
      message: 'genesis is not traceable',
    })
  })

  test('traces a preconfirmed transaction in the pending block on /flashblocks only', async () => {
    const hash = await h.transferToken(token, BOB, 1n, h.flashWallet)
    await h.chain.buildNow()
    const flash = await h.rpc('flashblocks', 'debug_traceTransaction', [hash, { tracer: 'callTracer' }])
    expect((flash.result as CallFrame).to).toBe(token.toLowerCase())
    expect((await h.rpc('general', 'debug_traceTransaction', [hash])).error).toEqual({
      code: -32000,
      message: 'transaction not found',
    })
    const pending = (await h.rpc('flashblocks', 'debug_traceBlockByNumber', ['pending', { tracer: 'callTracer' }]))
      .result as { txHash: Hex }[]
    expect(pending.map((t) => t.txHash).slice(1)).toEqual([hash])
    await h.chain.sealNow()
  })
  test('a trace past its timeout stops with the timeout error instead of logging a loop to its end', async () => {
    // a contract that loops until its gas is gone: JUMPDEST PUSH1 0 JUMP, returned by its init code
    const deploy = await h.wallet.sendTransaction({ data: '0x635b6000566000526004601cf3', gas: 100_000n, ...h.fees() })
    await h.mine()
    const loop = (await h.general.getTransactionReceipt({ hash: deploy })).contractAddress!
    const spin = await h.wallet.sendTransaction({ to: loop, gas: 3_000_000n, ...h.fees() })
    await h.mine()
    // a million steps: logged to the end they take seconds and hold the process all along
    expect((await h.rpc('general', 'debug_traceTransaction', [spin, { timeout: '50ms' }])).error).toEqual({
      code: -32002,
      message: 'execution aborted (timeout = 50ms)',
    })
    expect((await h.rpc('general', 'eth_chainId', [])).result).toBe('0xc4')
  })
})
