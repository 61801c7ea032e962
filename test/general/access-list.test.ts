import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { type Hex, encodeFunctionData, hexToBigInt } from 'viem'
import { BOB } from '../support/dev-keys.js'
import { testToken } from '../support/fixtures.js'
import { type Harness, startHarness } from '../support/harness.js'

type Result = { accessList: { address: Hex; storageKeys: Hex[] }[]; gasUsed: Hex; error?: string }

describe('eth_createAccessList', () => {
  let h: Harness
  let token: Hex
  const transfer = (amount: bigint) =>
    encodeFunctionData({ abi: testToken.abi, functionName: 'transfer', args: [BOB, amount] })

  beforeAll(async () => {
    h = await startHarness()
    token = (await h.deployToken(1000n)).address
  })
  afterAll(() => h?.close())

  test('a token transfer lists the token’s two balance slots, and sending it with that list uses the gas quoted', async () => {
    const call = { from: h.alice.address, to: token, input: transfer(3n) }
    const reply = await h.rpc('general', 'eth_createAccessList', [call, 'latest'])
    const result = reply.result as Result
    expect(result.error).toBeUndefined()
    expect(result.accessList).toHaveLength(1)
    expect(result.accessList[0]!.address).toBe(token.toLowerCase())
    expect(result.accessList[0]!.storageKeys).toHaveLength(2)
    const viaViem = await h.general.createAccessList({ account: h.alice.address, to: token, data: call.input })
    expect(viaViem.gasUsed).toBe(hexToBigInt(result.gasUsed))
    const hash = await h.wallet.sendTransaction({
      to: token,
      data: call.input,
      accessList: result.accessList,
      gas: 100_000n,
      ...h.fees(),
    })
    await h.mine()
    const receipt = await h.general.getTransactionReceipt({ hash })
    expect(receipt.gasUsed).toBe(hexToBigInt(result.gasUsed))
  })

  test('a reverting call still answers what it touched, with `execution reverted` in error', async () => {
    const call = { from: BOB, to: token, input: transfer(10n ** 30n) }
    const result = (await h.rpc('general', 'eth_createAccessList', [call])).result as Result
    expect(result.error).toBe('execution reverted')
    expect(result.accessList[0]?.address).toBe(token.toLowerCase())
    expect(hexToBigInt(result.gasUsed)).toBeGreaterThan(21_000n)
  })

  test('on /flashblocks `pending` runs on the newest flashblock’s state', async () => {
    const deploy = await h.wallet.deployContract({
      abi: testToken.abi,
      bytecode: testToken.bytecode,
      args: [5n],
      gas: 2_000_000n,
      ...h.fees(),
    })
    await h.chain.buildNow()
    const created = (await h.flash.getTransactionReceipt({ hash: deploy })).contractAddress!
    const call = { from: h.alice.address, to: created, input: transfer(1n) }
    const pending = (await h.rpc('flashblocks', 'eth_createAccessList', [call, 'pending'])).result as Result
    expect(pending.error).toBeUndefined()
    expect(pending.accessList[0]?.storageKeys).toHaveLength(2)
    const general = (await h.rpc('general', 'eth_createAccessList', [call, 'pending'])).result as Result
    expect(general.accessList).toEqual([])
    await h.chain.sealNow()
  })
})
