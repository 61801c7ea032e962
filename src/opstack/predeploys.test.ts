import { readFileSync } from 'node:fs'
import { describe, expect, test } from 'vitest'
import { createBlock } from '@ethereumjs/block'
import { Caches, MerkleStateManager } from '@ethereumjs/statemanager'
import { Address, bytesToHex, hexToBytes } from '@ethereumjs/util'
import { createVM, type VM } from '@ethereumjs/vm'
import { decodeFunctionResult, encodeFunctionData, type Abi, type Hex } from 'viem'
import { createChainCommon } from '../evm/chain-common.js'
import { GAS_PRICE_ORACLE, L1_BLOCK, L1_INFO_DEPOSITOR, SEQUENCER_FEE_VAULT } from './addresses.js'
import { encodeL1InfoCalldata, l1InfoDeposit } from './l1-info.js'
import { DEFAULT_L1_SETTINGS, nextL1Info, type L1Info } from './l1-origin.js'
import { oracleL1Fee, oracleL1FeeUpperBound, oracleL1GasUsed } from './l1-fee.js'
import { operatorFee } from './operator-fee.js'
import { installPredeploys, predeployAbis, predeployAlloc } from './predeploys.js'
import { runDeposit } from './run-deposit.js'
import vectors from './l1-fee.vectors.json' with { type: 'json' }

const TIME = 1_764_691_201n
const RECIPIENT = hexToBytes('0x00000000000000000000000000000000000fee01')

async function chainWithPredeploys(info: L1Info) {
  const common = createChainCommon({ chainId: 196, gasLimit: 30_000_000n, baseFee: 1_000_000n })
  const stateManager = new MerkleStateManager({ common, caches: new Caches() })
  await installPredeploys(stateManager, predeployAlloc(info, RECIPIENT))
  const vm = await createVM({ common, stateManager })
  const block = createBlock(
    { header: { number: 1n, timestamp: TIME, gasLimit: 30_000_000n, baseFeePerGas: 1_000_000n } },
    { common },
  )
  return { vm, block }
}

async function call(
  vm: VM,
  block: ReturnType<typeof createBlock>,
  to: Uint8Array,
  abi: Abi,
  functionName: string,
  args: unknown[] = [],
  caller = new Uint8Array(20),
) {
  const result = await vm.evm.runCall({
    block,
    caller: new Address(caller),
    to: new Address(to),
    gasLimit: 30_000_000n,
    data: hexToBytes(encodeFunctionData({ abi, functionName, args })),
  })
  if (result.execResult.exceptionError)
    return { reverted: true as const, data: bytesToHex(result.execResult.returnValue) }
  return {
    reverted: false as const,
    value: decodeFunctionResult({ abi, functionName, data: bytesToHex(result.execResult.returnValue) as Hex }),
  }
}

const gpo = (vm: VM, block: ReturnType<typeof createBlock>, name: string, args: unknown[] = []) =>
  call(vm, block, GAS_PRICE_ORACLE, predeployAbis.GasPriceOracle as Abi, name, args).then((r) =>
    r.reverted ? r : r.value,
  )
const l1b = (vm: VM, block: ReturnType<typeof createBlock>, name: string) =>
  call(vm, block, L1_BLOCK, predeployAbis.L1Block as Abi, name).then((r) => (r.reverted ? r : r.value))

const inputs: Record<string, Uint8Array> = {
  'an empty transaction': new Uint8Array(),
  'a thousand zeros': new Uint8Array(1000),
  'pseudo-random bytes': new Uint8Array(700).map((_, i) => (i * 2654435761) >>> 24),
  'a real OP mainnet transaction': hexToBytes(vectors.fjordOpMainnet124665056.tx as Hex),
  'a sample contract call': hexToBytes(vectors.fjordSample202.tx as Hex),
}

describe('predeploy artifact', () => {
  test('predeploys.json is what compile.mjs makes from the .sol sources now', async () => {
    const { compile } = (await import('./contracts/compile.mjs' as string)) as { compile: () => string }
    expect(compile()).toBe(readFileSync(new URL('./contracts/predeploys.json', import.meta.url), 'utf8'))
  }, 120_000)
})

describe('GasPriceOracle on the VM', () => {
  const info = {
    ...nextL1Info(TIME, undefined),
    l1BaseFee: 7_000_000_000n,
    blobBaseFee: 3n,
    operatorFeeScalar: 1234n,
    operatorFeeConstant: 5n,
  }

  for (const [name, data] of Object.entries(inputs)) {
    test(`getL1Fee and getL1GasUsed of ${name} equal l1-fee.ts`, async () => {
      const { vm, block } = await chainWithPredeploys(info)
      expect(await gpo(vm, block, 'getL1Fee', [bytesToHex(data)])).toBe(oracleL1Fee(data, info))
      expect(await gpo(vm, block, 'getL1GasUsed', [bytesToHex(data)])).toBe(oracleL1GasUsed(data))
    })
  }

  test('the upper bound, operator fee, scalars and fork flags answer as the formulas and genesis say', async () => {
    const { vm, block } = await chainWithPredeploys(info)
    expect(await gpo(vm, block, 'getL1FeeUpperBound', [500n])).toBe(oracleL1FeeUpperBound(500n, info))
    expect(await gpo(vm, block, 'getOperatorFee', [21_000n])).toBe(operatorFee(21_000n, info, 'jovian'))
    expect(await gpo(vm, block, 'l1BaseFee')).toBe(7_000_000_000n)
    expect(await gpo(vm, block, 'blobBaseFee')).toBe(3n)
    expect(await gpo(vm, block, 'baseFeeScalar')).toBe(Number(DEFAULT_L1_SETTINGS.baseFeeScalar))
    expect(await gpo(vm, block, 'blobBaseFeeScalar')).toBe(Number(DEFAULT_L1_SETTINGS.blobBaseFeeScalar))
    expect(await gpo(vm, block, 'decimals')).toBe(6n)
    expect(await gpo(vm, block, 'baseFee')).toBe(1_000_000n)
    for (const flag of ['isEcotone', 'isFjord', 'isIsthmus', 'isJovian']) expect(await gpo(vm, block, flag)).toBe(true)
    expect(await gpo(vm, block, 'overhead')).toMatchObject({ reverted: true })
  })
})

describe('L1Block on the VM', () => {
  test('the L1-info deposit updates every getter, and storage slot 8 holds the DA scalar where op-revm reads it', async () => {
    const { vm, block } = await chainWithPredeploys(nextL1Info(TIME, undefined))
    const next = {
      ...nextL1Info(TIME + 12n, undefined),
      l1BaseFee: 9n,
      operatorFeeScalar: 77n,
      operatorFeeConstant: 88n,
      daFootprintGasScalar: 321n,
    }
    const result = await runDeposit(vm, l1InfoDeposit(next), block)
    expect(result.status).toBe(1)
    expect(await l1b(vm, block, 'number')).toBe(next.number)
    expect(await l1b(vm, block, 'timestamp')).toBe(next.timestamp)
    expect(await l1b(vm, block, 'basefee')).toBe(9n)
    expect(await l1b(vm, block, 'hash')).toBe(bytesToHex(next.hash))
    expect(await l1b(vm, block, 'batcherHash')).toBe(bytesToHex(next.batcherHash))
    expect(await l1b(vm, block, 'sequenceNumber')).toBe(0n)
    expect(await l1b(vm, block, 'operatorFeeScalar')).toBe(77)
    expect(await l1b(vm, block, 'operatorFeeConstant')).toBe(88n)
    expect(await l1b(vm, block, 'daFootprintGasScalar')).toBe(321)
    const slot8 = await vm.stateManager.getStorage(
      new Address(L1_BLOCK),
      new Uint8Array(32).fill(0, 0, 31).map((_, i) => (i === 31 ? 8 : 0)),
    )
    const word = hexToBytes(`0x${bytesToHex(slot8).slice(2).padStart(64, '0')}`)
    expect((word[18]! << 8) | word[19]!).toBe(321)
  })

  test('genesis storage already answers with the genesis L1 info', async () => {
    const info = nextL1Info(TIME, undefined)
    const { vm, block } = await chainWithPredeploys(info)
    expect(await l1b(vm, block, 'number')).toBe(info.number)
    expect(await l1b(vm, block, 'daFootprintGasScalar')).toBe(400)
  })

  test('anyone but the depositor account is refused', async () => {
    const { vm, block } = await chainWithPredeploys(nextL1Info(TIME, undefined))
    const data = encodeL1InfoCalldata(nextL1Info(TIME + 12n, undefined))
    const other = await vm.evm.runCall({
      block,
      caller: new Address(RECIPIENT),
      to: new Address(L1_BLOCK),
      gasLimit: 1_000_000n,
      data,
    })
    expect(other.execResult.exceptionError?.error).toBe('revert')
    const depositor = await vm.evm.runCall({
      block,
      caller: new Address(L1_INFO_DEPOSITOR),
      to: new Address(L1_BLOCK),
      gasLimit: 1_000_000n,
      data,
    })
    expect(depositor.execResult.exceptionError).toBeUndefined()
  })
})

describe('fee vaults', () => {
  test('a vault accepts value and names its recipient', async () => {
    const { vm, block } = await chainWithPredeploys(nextL1Info(TIME, undefined))
    const r = await call(vm, block, SEQUENCER_FEE_VAULT, predeployAbis.FeeVault as Abi, 'RECIPIENT')
    expect(r.reverted ? r : String(r.value).toLowerCase()).toBe(bytesToHex(RECIPIENT))
    const sent = await vm.evm.runCall({
      block,
      caller: new Address(L1_INFO_DEPOSITOR),
      to: new Address(SEQUENCER_FEE_VAULT),
      gasLimit: 100_000n,
      value: 5n,
      skipBalance: true,
    })
    expect(sent.execResult.exceptionError).toBeUndefined()
    expect((await vm.stateManager.getAccount(new Address(SEQUENCER_FEE_VAULT)))?.balance).toBe(5n)
  })
})
