/**
 * Executes a deposit on an @ethereumjs VM with the OP Stack's rules (specs/protocol/deposits.md,
 * op-geth's state transition), which runTx cannot express: no signature and no fee, `mint` credited before
 * anything else and kept whatever happens, the sender's nonce bumped even when the deposit fails, and
 * (Regolith+) gasUsed the gas actually used with no refund. A deposit that cannot run at all (too little
 * gas, value above the balance, a system tx after Regolith) is still included: everything after the mint
 * is undone, the nonce is bumped and the whole gas limit counts as used.
 */
import type { Block } from '@ethereumjs/block'
import { Address, bytesToUnprefixedHex, createAccount, createContractAddress, hexToBytes } from '@ethereumjs/util'
import { Bloom, type VM } from '@ethereumjs/vm'
import type { DepositTx } from '../domain/deposit-encoding.js'

interface DepositLog {
  readonly address: Uint8Array
  readonly topics: readonly Uint8Array[]
  readonly data: Uint8Array
}

export interface DepositResult {
  status: 0 | 1
  gasUsed: bigint
  logs: DepositLog[]
  bloom: Bloom
  /** The sender's nonce before this deposit (the receipt's depositNonce). */
  depositNonce: bigint
  /** For a creation, the address the contract got (or would have got). */
  contractAddress?: Uint8Array
  /** Why the deposit failed before running: it is included anyway, with its mint. */
  failure?: string
  /** Why execution reverted or halted (status 0). */
  error?: string
  returnValue: Uint8Array
}

// Consensus constants of the forks active here (Istanbul calldata, Shanghai initcode, Prague floor)
const TX_GAS = 21_000n
const TX_CREATE_GAS = 32_000n
const ZERO_BYTE_GAS = 4n
const NON_ZERO_BYTE_GAS = 16n
const INITCODE_WORD_GAS = 2n
const FLOOR_GAS_PER_TOKEN = 10n
const MAX_INITCODE_SIZE = 49_152

function intrinsicGas(vm: VM, tx: DepositTx): { intrinsic: bigint; floor: bigint } {
  let zeros = 0n
  for (const b of tx.data) if (b === 0) zeros++
  const nonZeros = BigInt(tx.data.length) - zeros
  let intrinsic = TX_GAS + zeros * ZERO_BYTE_GAS + nonZeros * NON_ZERO_BYTE_GAS
  if (tx.to === undefined) intrinsic += TX_CREATE_GAS + INITCODE_WORD_GAS * ((BigInt(tx.data.length) + 31n) / 32n)
  // EIP-7623 (Prague, so Isthmus): the gas limit must cover the calldata floor
  const floor = vm.common.isActivatedEIP(7623) ? TX_GAS + (zeros + nonZeros * 4n) * FLOOR_GAS_PER_TOKEN : 0n
  return { intrinsic, floor }
}

function precheck(tx: DepositTx, balance: bigint, intrinsic: bigint, floor: bigint): string | undefined {
  if (tx.isSystemTx) return 'system transactions are not supported since Regolith'
  if (tx.gas < intrinsic) return `intrinsic gas too low: have ${tx.gas}, want ${intrinsic}`
  if (tx.gas < floor) return `insufficient gas for floor data gas cost: have ${tx.gas}, want ${floor}`
  if (tx.to === undefined && tx.data.length > MAX_INITCODE_SIZE) {
    return `max initcode size exceeded: code size ${tx.data.length} limit ${MAX_INITCODE_SIZE}`
  }
  if (balance < tx.value) return `insufficient funds for transfer: address ${new Address(tx.from)}`
  return undefined
}

/** Runs `tx` in `block`'s context on the VM's current state and keeps its effects (the caller commits or reverts). */
export async function runDeposit(vm: VM, tx: DepositTx, block: Block): Promise<DepositResult> {
  const journal = vm.evm.journal
  const from = new Address(tx.from)
  await journal.cleanup()
  await journal.checkpoint()
  try {
    const account = (await vm.stateManager.getAccount(from)) ?? createAccount({})
    account.balance += tx.mint
    await journal.putAccount(from, account)
    const depositNonce = account.nonce
    const contractAddress = tx.to === undefined ? createContractAddress(from, depositNonce).bytes : undefined
    const { intrinsic, floor } = intrinsicGas(vm, tx)
    const failure = precheck(tx, account.balance, intrinsic, floor)
    if (failure !== undefined) {
      // nothing ran after the mint, so only the nonce changes
      account.nonce += 1n
      await journal.putAccount(from, account)
      await journal.commit()
      return {
        status: 0,
        gasUsed: tx.gas,
        logs: [],
        bloom: new Bloom(undefined, vm.common),
        depositNonce,
        contractAddress,
        failure,
        returnValue: new Uint8Array(),
      }
    }
    if (vm.common.isActivatedEIP(2929)) {
      for (const [address] of vm.evm.precompiles.entries()) journal.addAlwaysWarmAddress(address)
      journal.addAlwaysWarmAddress(from.toString())
      if (tx.to) journal.addAlwaysWarmAddress(bytesToUnprefixedHex(tx.to))
      if (vm.common.isActivatedEIP(3651))
        journal.addAlwaysWarmAddress(bytesToUnprefixedHex(block.header.coinbase.bytes))
    }
    // runCall bumps the caller's nonce at depth 0 and derives a creation's address from the nonce before
    const result = await vm.evm.runCall({
      block,
      caller: from,
      origin: from,
      gasPrice: 0n,
      gasLimit: tx.gas - intrinsic,
      to: tx.to ? new Address(tx.to) : undefined,
      value: tx.value,
      data: tx.data,
    })
    const exec = result.execResult
    // EIP-6780: a contract that destroyed itself in the transaction that created it is removed
    for (const [address] of exec.selfdestruct ?? []) {
      if (exec.createdAddresses?.has(address))
        await journal.deleteAccount(new Address(hexToBytes(address as `0x${string}`)))
    }
    const failed = exec.exceptionError !== undefined
    const logs = failed ? [] : (exec.logs ?? []).map(([address, topics, data]) => ({ address, topics, data }))
    const bloom = new Bloom(undefined, vm.common)
    for (const log of logs) {
      bloom.add(log.address)
      for (const topic of log.topics) bloom.add(topic)
    }
    await journal.commit()
    return {
      // Regolith: the gas really used, and deposits get no refund
      status: failed ? 0 : 1,
      gasUsed: intrinsic + exec.executionGasUsed,
      logs,
      bloom,
      depositNonce,
      contractAddress,
      error: exec.exceptionError?.error,
      returnValue: exec.returnValue,
    }
  } catch (err) {
    await journal.revert()
    throw err
  } finally {
    if (vm.common.isActivatedEIP(2929)) journal.cleanJournal()
    vm.stateManager.originalStorageCache.clear()
    await journal.cleanup()
  }
}
