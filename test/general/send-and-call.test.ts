import { ContractFactory, JsonRpcProvider, Network, Wallet, type Contract, isError } from 'ethers'
import {
  type BaseError,
  CallExecutionError,
  ContractFunctionExecutionError,
  ContractFunctionRevertedError,
  type Hex,
  encodeFunctionData,
  toHex,
} from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { BOB, CAROL, DEV_KEY_1 } from '../support/dev-keys.js'
import { testToken } from '../support/fixtures.js'
import { type Harness, startHarness } from '../support/harness.js'

/**
 * Real clients deploy and use the TestToken fixture through the general endpoint: viem signing locally
 * (it asks the node for nonce, fees and gas), ethers v6 Wallet + ContractFactory, and the ways a call
 * reverts as each client reports them.
 */
describe('viem and ethers deploy, transfer and read an ERC-20', () => {
  let h: Harness
  let token: Hex

  beforeAll(async () => {
    h = await startHarness()
    // no gas, nonce or fees given: viem fills them through eth_estimateGas, eth_maxPriorityFeePerGas, ...
    const hash = await h.wallet.deployContract({ abi: testToken.abi, bytecode: testToken.bytecode, args: [1000n] })
    await h.mine()
    token = (await h.general.getTransactionReceipt({ hash })).contractAddress!
  })
  afterAll(() => h?.close())

  test('lets viem deploy, transfer and read balances with node-filled nonce, fees and gas', async () => {
    expect(await h.general.getCode({ address: token })).toMatch(/^0x60/)
    const hash = await h.wallet.writeContract({
      address: token,
      abi: testToken.abi,
      functionName: 'transfer',
      args: [BOB, 25n],
    })
    await h.mine()
    expect((await h.general.getTransactionReceipt({ hash })).status).toBe('success')
    const balance = (account: Hex) =>
      h.general.readContract({ address: token, abi: testToken.abi, functionName: 'balanceOf', args: [account] })
    expect(await balance(BOB)).toBe(25n)
    expect(await balance(h.alice.address)).toBe(975n)
  })

  test('lets ethers v6 deploy with a ContractFactory, transfer and read balances', async () => {
    // ethers reuses answers to identical requests for 250 ms (cacheTimeout); the pending nonce must be fresh
    const provider = new JsonRpcProvider(h.service.url, Network.from(196), { staticNetwork: true, cacheTimeout: -1 })
    const wallet = new Wallet(DEV_KEY_1, provider)
    const deploying = await new ContractFactory(testToken.abi as never, testToken.bytecode, wallet).deploy(500n)
    await h.mine()
    const contract = (await deploying.waitForDeployment()) as Contract
    const tx = await contract.getFunction('transfer')(CAROL, 7n)
    await h.mine()
    expect((await tx.wait())!.status).toBe(1)
    expect(await contract.getFunction('balanceOf')(CAROL)).toBe(7n)
    expect(await contract.getFunction('balanceOf')(wallet.address)).toBe(493n)
    provider.destroy()
  })

  test('reports a require() revert to viem as ContractFunctionRevertedError with the reason', async () => {
    const err = await h.general
      .simulateContract({
        account: h.alice.address,
        address: token,
        abi: testToken.abi,
        functionName: 'transfer',
        args: [BOB, 10n ** 30n],
      })
      .catch((e: unknown) => e)
    expect(err).toBeInstanceOf(ContractFunctionExecutionError)
    const reverted = (err as BaseError).walk(
      (e) => e instanceof ContractFunctionRevertedError,
    ) as ContractFunctionRevertedError
    expect(reverted).toBeInstanceOf(ContractFunctionRevertedError)
    expect(reverted.reason).toBe('insufficient balance')
  })

  test('reports a reverting raw eth_call to viem as CallExecutionError carrying the reason', async () => {
    const data = encodeFunctionData({ abi: testToken.abi, functionName: 'transfer', args: [BOB, 10n ** 30n] })
    const err = await h.general.call({ account: h.alice.address, to: token, data }).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(CallExecutionError)
    expect((err as CallExecutionError).shortMessage).toContain('insufficient balance')
  })

  test('answers code 3 with the revert bytes, and decodes a custom error in viem', async () => {
    const data = encodeFunctionData({ abi: testToken.abi, functionName: 'onlyZero' })
    const raw = await h.rpc('general', 'eth_call', [{ from: h.alice.address, to: token, input: data }, 'latest'])
    expect(raw.error?.code).toBe(3)
    // Unauthorized(address): selector 0x8e4a23d6, then the caller
    expect(raw.error?.data).toBe(`0x8e4a23d6${h.alice.address.slice(2).toLowerCase().padStart(64, '0')}`)
    const err = await h.general
      .simulateContract({ account: h.alice.address, address: token, abi: testToken.abi, functionName: 'onlyZero' })
      .catch((e: unknown) => e as BaseError)
    const reverted = (err as BaseError).walk(
      (e) => e instanceof ContractFunctionRevertedError,
    ) as ContractFunctionRevertedError
    expect(reverted.data?.errorName).toBe('Unauthorized')
    expect(reverted.data?.args).toEqual([h.alice.address])
  })

  test('answers -32000 `execution reverted` without data for a revert with no reason', async () => {
    const data = encodeFunctionData({ abi: testToken.abi, functionName: 'failEmpty' })
    const raw = await h.rpc('general', 'eth_call', [{ to: token, data }])
    expect(raw.error).toEqual({ code: -32000, message: 'execution reverted' })
    const estimate = await h.rpc('general', 'eth_estimateGas', [{ to: token, data }])
    expect(estimate.error).toEqual({ code: -32000, message: 'execution reverted' })
  })

  test('gives ethers the revert reason of a static call and of a gas estimate', async () => {
    const provider = new JsonRpcProvider(h.service.url, Network.from(196), { staticNetwork: true, cacheTimeout: -1 })
    const contract = new (await import('ethers')).Contract(
      token,
      testToken.abi as never,
      new Wallet(DEV_KEY_1, provider),
    )
    for (const attempt of [
      contract.getFunction('transfer').staticCall(BOB, 10n ** 30n),
      contract.getFunction('transfer').estimateGas(BOB, 10n ** 30n),
    ]) {
      const err = await attempt.catch((e: unknown) => e)
      expect(isError(err, 'CALL_EXCEPTION')).toBe(true)
      expect((err as { reason: string }).reason).toBe('insufficient balance')
    }
    provider.destroy()
  })

  test('estimates exactly the least gas with which the transfer succeeds', async () => {
    const data = encodeFunctionData({ abi: testToken.abi, functionName: 'transfer', args: [CAROL, 1n] })
    const gas = BigInt(
      (await h.rpc('general', 'eth_estimateGas', [{ from: h.alice.address, to: token, data }])).result as string,
    )
    const nonce = await h.general.getTransactionCount({ address: h.alice.address, blockTag: 'pending' })
    const fees = { maxFeePerGas: 10n ** 10n, maxPriorityFeePerGas: 10n ** 9n }
    const short = await h.wallet.sendTransaction({ to: token, data, gas: gas - 1n, nonce, ...fees })
    const exact = await h.wallet.sendTransaction({ to: token, data, gas, nonce: nonce + 1, ...fees })
    await h.mine()
    expect((await h.general.getTransactionReceipt({ hash: short })).status).toBe('reverted')
    expect((await h.general.getTransactionReceipt({ hash: exact })).status).toBe('success')
  })

  test('executes eth_call with state overrides without touching the chain', async () => {
    const data = encodeFunctionData({ abi: testToken.abi, functionName: 'totalSupply' })
    const slot0 = toHex(0n, { size: 32 }) // totalSupply is the first storage variable
    const overridden = await h.rpc('general', 'eth_call', [
      { to: token, data },
      'latest',
      { [token]: { stateDiff: { [slot0]: toHex(5n, { size: 32 }) } } },
    ])
    expect(overridden.result).toBe(toHex(5n, { size: 32 }))
    expect(await h.general.readContract({ address: token, abi: testToken.abi, functionName: 'totalSupply' })).toBe(
      1000n,
    )
  })

  test('eth_call with movePrecompileToAddress answers the precompile at its new address, as geth', async () => {
    const sha256 = '0x0000000000000000000000000000000000000002'
    const moved = '0x0000000000000000000000000000000000c0ffee'
    const digestOfAbc = '0xba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'
    const overrides = { [sha256]: { movePrecompileToAddress: moved } }
    const atNew = await h.rpc('general', 'eth_call', [{ to: moved, input: '0x616263' }, 'latest', overrides])
    expect(atNew.result).toBe(digestOfAbc)
    const atOld = await h.rpc('general', 'eth_call', [{ to: sha256, input: '0x616263' }, 'latest', overrides])
    expect(atOld.result).toBe('0x')
    const notPrecompile = await h.rpc('general', 'eth_call', [
      { to: moved },
      'latest',
      { [moved]: { movePrecompileToAddress: sha256 } },
    ])
    expect(notPrecompile.error?.code).toBe(-32000)
  })

  test('runs each eth_call on the state as it is: a call that writes storage leaves nothing for the next one', async () => {
    const increment = encodeFunctionData({ abi: testToken.abi, functionName: 'increment' })
    const counter = encodeFunctionData({ abi: testToken.abi, functionName: 'counter' })
    const before = (await h.rpc('general', 'eth_call', [{ to: token, data: counter }, 'latest'])).result
    const results = await Promise.all(
      Array.from({ length: 8 }, () =>
        h.rpc('general', 'eth_call', [{ from: h.alice.address, to: token, data: increment }, 'latest']),
      ),
    )
    // every call saw the same counter and incremented it once (the function returns the new value)
    expect(new Set(results.map((r) => r.result)).size).toBe(1)
    expect(BigInt(results[0]!.result as string)).toBe(BigInt(before as string) + 1n)
    expect((await h.rpc('general', 'eth_call', [{ to: token, data: counter }, 'latest'])).result).toBe(before)
  })

  test('answers `header not found` for a call at a block that does not exist', async () => {
    const raw = await h.rpc('general', 'eth_call', [{ to: token, data: '0x' }, '0xffffff'])
    expect(raw.error).toEqual({ code: -32000, message: 'header not found' })
  })
})
