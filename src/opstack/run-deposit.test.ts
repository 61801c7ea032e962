import { describe, expect, test } from 'vitest'
import { createBlock } from '@ethereumjs/block'
import { Caches, MerkleStateManager } from '@ethereumjs/statemanager'
import { Address, bytesToHex, createAccount, createContractAddress, hexToBytes } from '@ethereumjs/util'
import { createVM, type VM } from '@ethereumjs/vm'
import { createChainCommon } from '../evm/chain-common.js'
import type { DepositTx } from '../domain/deposit-encoding.js'
import { runDeposit } from './run-deposit.js'

const FROM = hexToBytes('0x977f82a600a1414e583f7f13623f1ac5d58b1c0b')
const LOGGER = hexToBytes('0x00000000000000000000000000000000000a11ce')
const REVERTER = hexToBytes('0x00000000000000000000000000000000000b0b00')
// SSTORE(0, 42); LOG0(0, 0); STOP
const LOGGER_CODE = hexToBytes('0x602a60005560006000a000')
// REVERT(0, 0)
const REVERTER_CODE = hexToBytes('0x60006000fd')
// MSTORE8(0, 0xfe); RETURN(0, 1): deploys the one-byte runtime 0xfe
const INITCODE = hexToBytes('0x60fe60005360016000f3')

async function setup(): Promise<{ vm: VM; block: ReturnType<typeof createBlock> }> {
  const common = createChainCommon({ chainId: 196, gasLimit: 30_000_000n, baseFee: 1_000_000n })
  const stateManager = new MerkleStateManager({ common, caches: new Caches() })
  const vm = await createVM({ common, stateManager })
  for (const [address, code] of [
    [LOGGER, LOGGER_CODE],
    [REVERTER, REVERTER_CODE],
  ] as const) {
    await stateManager.putAccount(new Address(address), createAccount({ nonce: 1n }))
    await stateManager.putCode(new Address(address), code)
  }
  await stateManager.putAccount(new Address(FROM), createAccount({ nonce: 3n, balance: 5n }))
  const block = createBlock(
    { header: { number: 1n, timestamp: 1_764_691_201n, gasLimit: 30_000_000n, baseFeePerGas: 1_000_000n } },
    { common },
  )
  return { vm, block }
}

const deposit = (fields: Partial<DepositTx>): DepositTx => ({
  sourceHash: new Uint8Array(32).fill(7),
  from: FROM,
  mint: 0n,
  value: 0n,
  gas: 200_000n,
  isSystemTx: false,
  data: new Uint8Array(),
  ...fields,
})

async function account(vm: VM, address: Uint8Array) {
  return (await vm.stateManager.getAccount(new Address(address))) ?? createAccount({})
}

describe('running a deposit', () => {
  test('a successful deposit credits the mint, moves the value, bumps the nonce and reports its real gas and log', async () => {
    const { vm, block } = await setup()
    const result = await runDeposit(vm, deposit({ to: LOGGER, mint: 1000n, value: 400n }), block)
    expect(result.status).toBe(1)
    expect(result.depositNonce).toBe(3n)
    // 21 000 intrinsic + SSTORE 0 -> 42 on a cold slot (22 100) + the pushes and LOG0 (3·4 + 375)
    expect(result.gasUsed).toBe(21_000n + 22_100n + 12n + 375n)
    expect(result.logs).toHaveLength(1)
    expect(bytesToHex(result.logs[0]!.address)).toBe(bytesToHex(LOGGER))
    expect((await account(vm, FROM)).balance).toBe(5n + 1000n - 400n)
    expect((await account(vm, FROM)).nonce).toBe(4n)
    expect((await account(vm, LOGGER)).balance).toBe(400n)
    expect(bytesToHex(await vm.stateManager.getStorage(new Address(LOGGER), new Uint8Array(32)))).toBe('0x2a')
  })

  test('a reverting deposit keeps the mint and the nonce bump but not the value transfer', async () => {
    const { vm, block } = await setup()
    const result = await runDeposit(vm, deposit({ to: REVERTER, mint: 1000n, value: 400n }), block)
    expect(result.status).toBe(0)
    expect(result.error).toBe('revert')
    expect(result.gasUsed).toBe(21_000n + 6n)
    expect(result.logs).toEqual([])
    expect((await account(vm, FROM)).balance).toBe(1005n)
    expect((await account(vm, FROM)).nonce).toBe(4n)
    expect((await account(vm, REVERTER)).balance).toBe(0n)
  })

  test('a creation deposit deploys at the address of the sender and its pre-deposit nonce', async () => {
    const { vm, block } = await setup()
    const result = await runDeposit(vm, deposit({ data: INITCODE }), block)
    const expected = createContractAddress(new Address(FROM), 3n)
    expect(result.status).toBe(1)
    expect(bytesToHex(result.contractAddress!)).toBe(expected.toString())
    expect(bytesToHex(await vm.stateManager.getCode(expected))).toBe('0xfe')
    expect((await account(vm, FROM)).nonce).toBe(4n)
  })

  test('a deposit whose value exceeds balance plus mint is included as failed, using all its gas, with the mint kept', async () => {
    const { vm, block } = await setup()
    const result = await runDeposit(vm, deposit({ to: LOGGER, mint: 10n, value: 10n ** 18n }), block)
    expect(result.status).toBe(0)
    expect(result.failure).toMatch(/insufficient funds for transfer/)
    expect(result.gasUsed).toBe(200_000n)
    expect((await account(vm, FROM)).balance).toBe(15n)
    expect((await account(vm, FROM)).nonce).toBe(4n)
    expect(bytesToHex(await vm.stateManager.getStorage(new Address(LOGGER), new Uint8Array(32)))).toBe('0x')
  })

  test('a deposit below intrinsic gas and a system deposit fail the same way', async () => {
    const { vm, block } = await setup()
    const low = await runDeposit(vm, deposit({ to: LOGGER, mint: 1n, gas: 20_000n }), block)
    expect([low.status, low.gasUsed, low.failure]).toEqual([
      0,
      20_000n,
      'intrinsic gas too low: have 20000, want 21000',
    ])
    const system = await runDeposit(vm, deposit({ to: LOGGER, isSystemTx: true }), block)
    expect(system.failure).toMatch(/system transactions are not supported/)
    expect(system.depositNonce).toBe(4n)
    expect((await account(vm, FROM)).nonce).toBe(5n)
    expect((await account(vm, FROM)).balance).toBe(6n)
  })

  test('a deposit from an account that does not exist yet creates it with the mint', async () => {
    const { vm, block } = await setup()
    const fresh = hexToBytes('0x1111111111111111111111111111111111111111')
    const result = await runDeposit(vm, deposit({ from: fresh, to: fresh, mint: 7n }), block)
    expect([result.status, result.depositNonce, result.gasUsed]).toEqual([1, 0n, 21_000n])
    expect(await account(vm, fresh)).toMatchObject({ balance: 7n, nonce: 1n })
  })
})
