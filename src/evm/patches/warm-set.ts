/**
 * EIP-2929's always-warm set of a call, set as the journal's whole map (the journal was just cleaned) rather
 * than through addAlwaysWarmAddress, which checks and strips a hex string for each of the twenty-odd entries
 * on every call. The field is private in @ethereumjs/evm's declarations, without a type: this is its type in
 * the package's source (journal.ts).
 */
import type { EVM } from '@ethereumjs/evm'
import { hookRuns } from './hook-runs.js'

type WarmJournal = { alwaysWarmJournal: Map<string, Set<string>> }

/** Makes `warm` (unprefixed hex addresses, each with its warm slots) `evm`'s whole always-warm set. */
export function setAlwaysWarm(evm: EVM, warm: Map<string, Set<string>>): void {
  hookRuns.warmSet++
  ;(evm.journal as unknown as WarmJournal).alwaysWarmJournal = warm
}

/** Whether `evm`'s journal has the field (installEvmPatches's check). */
export function hasWarmJournal(evm: EVM): boolean {
  return (evm.journal as unknown as Partial<WarmJournal>).alwaysWarmJournal instanceof Map
}
