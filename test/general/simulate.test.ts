import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { type Hex, encodeFunctionData, pad, parseEther, toHex } from 'viem'
import { BOB, CAROL } from '../support/dev-keys.js'
import { TRANSFER_TOPIC, testToken } from '../support/fixtures.js'
import { type Harness, startHarness } from '../support/harness.js'

/** A fresh account with no history, so balances read in a simulation are only what the simulation moved. */
const FRESH: Hex = '0x00000000000000000000000000000000000c0ffe'
/** Runtime code answering the balance of FRESH (BALANCE, MSTORE, RETURN 32 bytes). */
const BALANCE_OF_FRESH: Hex = `0x73${FRESH.slice(2)}3160005260206000f3`
/** Runtime code answering the block's NUMBER, TIMESTAMP and BASEFEE as three words. */
const BLOCK_FIELDS: Hex = '0x43600052426020524860405260606000f3'

describe('eth_simulateV1', () => {
  let h: Harness
  let token: Hex
  const transfer = (to: Hex, amount: bigint) =>
    encodeFunctionData({ abi: testToken.abi, functionName: 'transfer', args: [to, amount] })

  beforeAll(async () => {
    h = await startHarness()
    token = (await h.deployToken(1000n)).address
  })
  afterAll(() => h?.close())

  test('a transfer in one simulated block is seen by a balance read in the next, and nothing is kept', async () => {
    const [first, second] = await h.general.simulateBlocks({
      blocks: [
        { calls: [{ account: h.alice.address, to: FRESH, value: parseEther('1') }] },
        {
          calls: [{ to: CAROL, data: '0x' }],
          stateOverrides: [{ address: CAROL, code: BALANCE_OF_FRESH }],
        },
      ],
    })
    const latest = await h.general.getBlockNumber({ cacheTime: 0 })
    expect(first!.number).toBe(latest + 1n)
    expect(second!.number).toBe(latest + 2n)
    expect(second!.parentHash).toBe(first!.hash)
    expect(first!.calls[0]!.status).toBe('success')
    expect(first!.calls[0]!.gasUsed).toBe(21_000n)
    expect(BigInt(second!.calls[0]!.data)).toBe(parseEther('1'))
    expect(await h.general.getBalance({ address: FRESH })).toBe(0n)
  })

  test('viem’s simulateCalls previews a token transfer’s asset changes for a wallet', async () => {
    const { results, assetChanges } = await h.general.simulateCalls({
      account: h.alice.address,
      calls: [{ to: token, data: transfer(CAROL, 7n) }],
      traceAssetChanges: true,
    })
    expect(results[0]!.status).toBe('success')
    const tokenChange = assetChanges.find((change) => change.token.address.toLowerCase() === token.toLowerCase())
    expect(tokenChange?.value.diff).toBe(-7n)
  })

  test('a reverting call reports its reason in its own result while the calls around it still run', async () => {
    const [block] = await h.general.simulateBlocks({
      blocks: [
        {
          calls: [
            { account: BOB, to: token, data: transfer(CAROL, 1n) },
            { account: h.alice.address, to: token, data: transfer(BOB, 5n) },
          ],
        },
      ],
    })
    const [reverted, transferred] = block!.calls
    expect(reverted!.status).toBe('failure')
    expect(reverted!.error?.message).toContain('insufficient balance')
    expect(transferred!.status).toBe('success')
    expect(transferred!.logs).toHaveLength(1)
    expect(transferred!.logs![0]!.blockHash).toBe(block!.hash)
  })

  test('block overrides set the number, time and base fee the contract sees and the block reports', async () => {
    const latest = await h.general.getBlock({ blockTag: 'latest' })
    const number = latest.number + 10n
    const time = latest.timestamp + 1000n
    const reply = await h.rpc('general', 'eth_simulateV1', [
      {
        blockStateCalls: [
          {
            blockOverrides: { number: toHex(number), time: toHex(time), baseFeePerGas: '0x7' },
            stateOverrides: { [CAROL]: { code: BLOCK_FIELDS } },
            calls: [{ to: CAROL }],
          },
        ],
      },
      'latest',
    ])
    const blocks = reply.result as { number: Hex; timestamp: Hex; baseFeePerGas: Hex; calls: { returnData: Hex }[] }[]
    // the gap up to the overridden number is filled with empty blocks
    expect(blocks.map((b) => BigInt(b.number))).toEqual(
      Array.from({ length: 10 }, (_, i) => latest.number + 1n + BigInt(i)),
    )
    const last = blocks[9]!
    expect(BigInt(last.timestamp)).toBe(time)
    expect(BigInt(last.baseFeePerGas)).toBe(7n)
    const words = last.calls[0]!.returnData.slice(2)
      .match(/.{64}/g)!
      .map((w) => BigInt(`0x${w}`))
    expect(words).toEqual([number, time, 7n])
  })

  test('traceTransfers reports the ETH a call moves as an ERC-7528 Transfer log from 0xeeee…eeee', async () => {
    const [block] = await h.general.simulateBlocks({
      traceTransfers: true,
      blocks: [{ calls: [{ account: h.alice.address, to: FRESH, value: 5n }] }],
    })
    const [log] = block!.calls[0]!.logs!
    expect(log!.address).toBe('0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee')
    expect(log!.topics).toEqual([TRANSFER_TOPIC, pad(h.alice.address.toLowerCase() as Hex), pad(FRESH)])
    expect(BigInt(log!.data)).toBe(5n)
  })

  test('with validation a call paying less than the base fee fails the whole request with -38012', async () => {
    const reply = await h.rpc('general', 'eth_simulateV1', [
      {
        blockStateCalls: [
          { blockOverrides: { baseFeePerGas: '0x3b9aca00' }, calls: [{ from: h.alice.address, to: BOB }] },
        ],
        validation: true,
      },
    ])
    expect(reply.error?.code).toBe(-38012)
  })

  test('a block number that does not increase is refused with -38020', async () => {
    const latest = await h.general.getBlockNumber({ cacheTime: 0 })
    const reply = await h.rpc('general', 'eth_simulateV1', [
      { blockStateCalls: [{ blockOverrides: { number: toHex(latest) } }] },
    ])
    expect(reply.error?.code).toBe(-38020)
  })

  test('on /flashblocks `pending` simulates on top of the preconfirmed state; on / it does not', async () => {
    await h.transferToken(token, FRESH, 40n, h.flashWallet)
    await h.chain.buildNow()
    const balanceCall = {
      to: token,
      abi: testToken.abi,
      functionName: 'balanceOf',
      args: [FRESH],
    } as const
    const [onFlash] = await h.flash.simulateBlocks({ blockTag: 'pending', blocks: [{ calls: [balanceCall] }] })
    const [onGeneral] = await h.general.simulateBlocks({ blockTag: 'pending', blocks: [{ calls: [balanceCall] }] })
    expect(onFlash!.calls[0]!.result).toBe(40n)
    expect(onGeneral!.calls[0]!.result).toBe(0n)
    await h.chain.sealNow()
  })
})
