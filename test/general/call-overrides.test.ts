import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { type Hex, decodeFunctionResult, encodeFunctionData, pad, toHex } from 'viem'
import { CAROL } from '../support/dev-keys.js'
import { blockEnv } from '../support/fixtures.js'
import { type Harness, startHarness } from '../support/harness.js'

const COINBASE: Hex = '0x1111111111111111111111111111111111111111'
// small: viem sends prevRandao as a quantity (0xabc), geth takes a 32-byte hash; both are accepted
const RANDAO = 0xabcn
const ENV = encodeFunctionData({ abi: blockEnv.abi, functionName: 'env' })
const hashOf = (n: bigint) => encodeFunctionData({ abi: blockEnv.abi, functionName: 'hashOf', args: [n] })
const notBefore = (n: bigint) => encodeFunctionData({ abi: blockEnv.abi, functionName: 'notBefore', args: [n] })
const LAST_SEEN_SLOT = pad('0x0', { size: 32 })
/** An account that holds nothing on the dev chain. */
const POOR: Hex = '0x00000000000000000000000000000000000bad01'

type Env = { number: bigint; time: bigint; coinbase: Hex; baseFee: bigint; gasLimit: bigint; prevRandao: bigint }

function decodeEnv(data: Hex | undefined) {
  const [number, time, coinbase, baseFee, gasLimit, prevRandao, blobBaseFee] = decodeFunctionResult({
    abi: blockEnv.abi,
    functionName: 'env',
    data: data!,
  }) as [bigint, bigint, Hex, bigint, bigint, bigint, bigint]
  return { number, time, coinbase, baseFee, gasLimit, prevRandao, blobBaseFee }
}

/** eth_call's fourth parameter and eth_estimateGas's overrides through the real service, with viem where it can. */
describe('block and state overrides on calls and estimates', () => {
  let h: Harness
  let contract: Hex
  let plain: Env

  beforeAll(async () => {
    h = await startHarness()
    const hash = await h.wallet.deployContract({
      abi: blockEnv.abi,
      bytecode: blockEnv.bytecode,
      gas: 1_000_000n,
      ...h.fees(),
    })
    await h.mine()
    contract = (await h.general.getTransactionReceipt({ hash })).contractAddress!
    await h.mine()
    plain = decodeEnv((await h.general.call({ to: contract, data: ENV })).data)
  })
  afterAll(() => h?.close())

  test('NUMBER, TIMESTAMP, COINBASE, GASLIMIT, PREVRANDAO and BLOBBASEFEE read the overridden fields', async () => {
    const { data } = await h.general.call({
      to: contract,
      data: ENV,
      blockOverrides: {
        number: 1000n,
        time: 2_000_000_000n,
        feeRecipient: COINBASE,
        gasLimit: 12_345_678n,
        prevRandao: RANDAO,
        blobBaseFee: 7n,
      },
    })
    expect(decodeEnv(data)).toEqual({
      number: 1000n,
      time: 2_000_000_000n,
      coinbase: COINBASE,
      baseFee: 0n,
      gasLimit: 12_345_678n,
      prevRandao: RANDAO,
      blobBaseFee: 7n,
    })
  })

  test('BASEFEE reads the override when the call pays fees, and zero when it names none, as geth', async () => {
    const baseFeePerGas = 5_000_000_000n
    const paying = await h.general.call({
      account: h.alice.address,
      to: contract,
      data: ENV,
      gasPrice: baseFeePerGas,
      blockOverrides: { baseFeePerGas },
    })
    expect(decodeEnv(paying.data).baseFee).toBe(baseFeePerGas)
    const free = await h.general.call({ to: contract, data: ENV, blockOverrides: { baseFeePerGas } })
    expect(decodeEnv(free.data).baseFee).toBe(0n)
  })

  test('an overridden call is never answered from, nor kept in, the plain calls’ memo', async () => {
    // the plain answer is memoised by now (beforeAll asked it); the same call overridden must not get it
    const overridden = await h.general.call({ to: contract, data: ENV, blockOverrides: { time: 1n } })
    expect(decodeEnv(overridden.data).time).toBe(1n)
    const again = await h.general.call({ to: contract, data: ENV })
    expect(decodeEnv(again.data)).toEqual(decodeEnv((await h.general.call({ to: contract, data: ENV })).data))
    expect(decodeEnv(again.data).time).toBe(plain.time)
  })

  test('BLOCKHASH answers from the real block: zero from its own number on, whatever NUMBER says', async () => {
    const head = await h.general.getBlockNumber({ cacheTime: 0 })
    const parent = await h.general.getBlock({ blockNumber: head - 1n })
    const at = (n: bigint, number: bigint) =>
      h.general.call({ to: contract, data: hashOf(n), blockOverrides: { number } }).then((r) => r.data)
    expect(await at(head - 1n, head + 1n)).toBe(parent.hash)
    expect(BigInt((await at(head, head + 1n))!)).toBe(0n)
    expect(BigInt((await at(head + 3n, head + 10n))!)).toBe(0n)
  })

  test('state and block overrides together: the overridden code runs under the overridden header', async () => {
    // NUMBER, MSTORE at 0, RETURN 32 bytes
    const { data } = await h.general.call({
      to: CAROL,
      blockOverrides: { number: 77n },
      stateOverride: [{ address: CAROL, code: '0x4360005260206000f3' }],
    })
    expect(BigInt(data!)).toBe(77n)
  })

  test('a block override reaches the preconfirmed state under pending on /flashblocks', async () => {
    // a preconfirmed notBefore(0) stores the pending block's number in lastSeen
    const hash = await h.flashWallet.sendTransaction({ to: contract, data: notBefore(0n), gas: 100_000n, ...h.fees() })
    await h.chain.buildNow()
    const pendingNumber = (await h.flash.getBlock({ blockTag: 'pending' })).number
    const lastSeen = encodeFunctionData({ abi: blockEnv.abi, functionName: 'lastSeen' })
    const read = (client: typeof h.general) =>
      client.call({ to: contract, data: lastSeen, blockTag: 'pending', blockOverrides: { time: 5n } })
    expect(BigInt((await read(h.flash)).data!)).toBe(pendingNumber)
    expect(BigInt((await read(h.general)).data!)).toBe(0n)
    await h.chain.sealNow()
    expect((await h.general.getTransactionReceipt({ hash })).status).toBe('success')
  })

  test('a state override changes an estimate: a slot already set costs less to write again', async () => {
    const request = { account: h.alice.address, to: contract, data: notBefore(0n) }
    const lastSeen = (value: Hex) => ({ address: contract, stateDiff: [{ slot: LAST_SEEN_SLOT, value }] })
    const unset = await h.general.estimateGas({ ...request, stateOverride: [lastSeen(pad('0x0', { size: 32 }))] })
    const set = await h.general.estimateGas({ ...request, stateOverride: [lastSeen(pad('0x5', { size: 32 }))] })
    // EIP-2929/2200: a zero-to-nonzero SSTORE costs 22100, a nonzero-to-nonzero one 5000
    expect(unset - set).toBe(17_100n)
    // a balance override lifts the cap a sender's balance puts on the search, as geth's
    const poor = { from: POOR, to: contract, data: notBefore(0n), gasPrice: toHex(10n ** 12n) }
    const unfunded = await h.rpc('general', 'eth_estimateGas', [poor, 'latest'])
    expect(unfunded.error).toEqual({ code: -32000, message: 'insufficient funds for transfer' })
    const funded = await h.rpc('general', 'eth_estimateGas', [
      poor,
      'latest',
      { [POOR]: { balance: toHex(10n ** 20n) } },
    ])
    expect(BigInt(funded.result as string)).toBeGreaterThan(21_000n)
  })

  test('a block override decides an estimate: a call reverting before block 1000 succeeds at 1000', async () => {
    const call = { from: h.alice.address, to: contract, data: notBefore(1000n) }
    const before = await h.rpc('general', 'eth_estimateGas', [call, 'latest'])
    expect(before.error).toMatchObject({ code: 3, message: 'execution reverted: too early' })
    const at = await h.rpc('general', 'eth_estimateGas', [call, 'latest', {}, { number: toHex(1000) }])
    expect(BigInt(at.result as string)).toBeGreaterThan(21_000n)
  })

  test('eth_createAccessList searches the overridden state, as geth’s third parameter', async () => {
    // SLOAD of slot 7, MSTORE, RETURN 32 bytes: code given to an account that has none
    const code = '0x60075460005260206000f3'
    const { result } = await h.rpc('general', 'eth_createAccessList', [
      { from: h.alice.address, to: CAROL },
      'latest',
      { [CAROL]: { code, stateDiff: { [pad('0x7', { size: 32 })]: pad('0x2a', { size: 32 }) } } },
    ])
    expect(result).toMatchObject({
      accessList: [{ address: CAROL.toLowerCase(), storageKeys: [pad('0x7', { size: 32 })] }],
    })
    const plain = await h.rpc('general', 'eth_createAccessList', [{ from: h.alice.address, to: CAROL }, 'latest'])
    expect(plain.result).toMatchObject({ accessList: [], gasUsed: toHex(21_000) })
  })

  test('bad overrides are refused naming the field; a simulated block’s fields as geth refuses them', async () => {
    const call = { to: contract, data: ENV }
    expect((await h.rpc('general', 'eth_call', [call, 'latest', {}, { number: 'zz' }])).error).toEqual({
      code: -32602,
      message:
        'invalid argument 3 (blockOverrides): field "number": expected a 256-bit hex quantity without leading zeros, got "zz"',
    })
    expect((await h.rpc('general', 'eth_call', [call, 'latest', {}, { gasLimt: '0x1' }])).error).toEqual({
      code: -32602,
      message: 'invalid argument 3 (blockOverrides): unknown field "gasLimt"',
    })
    expect((await h.rpc('general', 'eth_estimateGas', [call, 'latest', { [CAROL]: { nonce: 5 } }])).error).toEqual({
      code: -32602,
      message: expect.stringMatching(/^invalid argument 2 \(stateOverrides\): field ".*nonce"/),
    })
    expect(
      (await h.rpc('general', 'eth_call', [call, 'latest', {}, { beaconRoot: pad('0x1', { size: 32 }) }])).error,
    ).toEqual({ code: -32000, message: 'block override "beaconRoot" is not supported for this RPC method' })
  })
})
