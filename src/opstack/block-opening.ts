/**
 * What opens every block of this chain (OP Stack derivation): the L1-info deposit, against the simulated L1
 * origin of the block's timestamp, with the sequence number continuing the parent's (read back from the
 * parent's own L1-info deposit, so a restarted or reloaded chain continues it too; genesis holds the L1
 * info of its own timestamp at sequence number 0), then the deposits users sent since the last block.
 */
import { equalsBytes } from '@ethereumjs/util'
import type { BlockRecord, TxRecord } from '../domain/types.js'
import { L1_INFO_DEPOSITOR } from './addresses.js'
import { DepositTransaction, isDeposit } from '../domain/deposit-transaction.js'
import { decodeL1InfoCalldata, L1_INFO_DEPOSIT_GAS, l1InfoDeposit } from './l1-info.js'
import { type L1Info, type L1Settings, DEFAULT_L1_SETTINGS, nextL1Info } from './l1-origin.js'

/** The parent's L1 info: from its L1-info deposit, or (genesis) the info of its own timestamp. */
function parentL1Info(parent: BlockRecord, settings: L1Settings): L1Info {
  const first = parent.txs[0]?.tx
  if (first && isDeposit(first) && equalsBytes(first.deposit.from, L1_INFO_DEPOSITOR))
    return decodeL1InfoCalldata(first.deposit.data).info
  return nextL1Info(parent.header.timestamp, undefined, settings)
}

/** The L1-info deposit of the block after `parent` at `timestamp` (Jovian calldata). */
export function l1InfoRecord(parent: BlockRecord, timestamp: bigint, settings = DEFAULT_L1_SETTINGS): TxRecord {
  const info = nextL1Info(timestamp, parentL1Info(parent, settings), settings)
  const tx = new DepositTransaction(l1InfoDeposit(info, 'jovian'))
  return { hash: tx.hash(), tx, sender: tx.deposit.from, raw: tx.serialize() }
}

/** The block's opening deposits, then the pool's candidates. */
export function* withOpeningDeposits(opening: readonly TxRecord[], rest: Iterable<TxRecord>): Generator<TxRecord> {
  yield* opening
  yield* rest
}

/**
 * The most gas a user deposit may ask for: what a block holds besides its L1-info deposit (SystemConfig's
 * rule that the gas limit covers the deposit resource limit plus the system transaction's gas), so every
 * deposit fits the block it is due in and none holds the ones behind it back for ever.
 */
export function maxDepositGas(blockGasLimit: bigint): bigint {
  return blockGasLimit - L1_INFO_DEPOSIT_GAS
}

/** The user deposits among transactions a block left out: they carry over to the next block. */
export function heldDeposits(left: readonly TxRecord[]): TxRecord[] {
  return left.filter((r) => isDeposit(r.tx) && !equalsBytes(r.tx.deposit.from, L1_INFO_DEPOSITOR))
}
