/**
 * --load-state FILE: a state file (anvil's format, see state-dump.ts; anvil's own dumps load too) read
 * and checked before the chain starts, then written over genesis: each account in the file gets its
 * nonce, balance and code, and its storage replaced by the file's. The chain starts at block 0 with that
 * state; the file's blocks and transactions are not replayed.
 */
import { readFileSync } from 'node:fs'
import type { MerkleStateManager } from '@ethereumjs/statemanager'
import { Address, createAccount, hexToBytes, setLengthLeft } from '@ethereumjs/util'

/** A state file that cannot be loaded; the message names the file and what is wrong. */
export class StateFileError extends Error {
  override name = 'StateFileError'
}

export interface LoadedAccount {
  address: Address
  nonce: bigint
  balance: bigint
  code: Uint8Array
  storage: [Uint8Array, Uint8Array][]
}

const HEX = /^0x[0-9a-fA-F]*$/

export function readStateFile(file: string): LoadedAccount[] {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (err) {
    throw new StateFileError(`--load-state ${file}: cannot be read (${(err as NodeJS.ErrnoException).code})`)
  }
  return parseStateFile(text, `--load-state ${file}`)
}

/** A state file's text as accounts; `label` opens every error message (the flag and file, or the method). */
export function parseStateFile(text: string, label: string): LoadedAccount[] {
  const fail = (why: string): never => {
    throw new StateFileError(`${label}: ${why}`)
  }
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch (err) {
    return fail(`is not JSON (${(err as Error).message})`)
  }
  const accounts = (parsed as { accounts?: unknown } | null)?.accounts
  if (typeof accounts !== 'object' || accounts === null || Array.isArray(accounts))
    return fail('has no "accounts" object (expected the format of anvil --dump-state)')
  return Object.entries(accounts).map(([address, value]) => {
    const at = (field: string) => `account ${address}: ${field}`
    if (!/^0x[0-9a-fA-F]{40}$/.test(address)) fail(`${address} is not an address`)
    const account = value as Record<string, unknown>
    if (typeof account !== 'object' || account === null) fail(at('is not an object'))
    const quantity = (field: string): bigint => {
      const v = account[field] ?? 0
      if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) return BigInt(v)
      if (typeof v === 'string' && (/^0x[0-9a-fA-F]+$/.test(v) || /^[0-9]+$/.test(v))) return BigInt(v)
      return fail(at(`${field} is not a non-negative quantity`))
    }
    const bytes = (v: unknown, what: string, max: number): Uint8Array => {
      if (typeof v !== 'string' || !HEX.test(v) || v.length % 2 !== 0 || (v.length - 2) / 2 > max)
        fail(at(`${what} is not hex of at most ${max} bytes`))
      return hexToBytes(v as `0x${string}`)
    }
    const storage = account.storage ?? {}
    if (typeof storage !== 'object' || storage === null || Array.isArray(storage)) fail(at('storage is not an object'))
    return {
      address: new Address(hexToBytes(address as `0x${string}`)),
      nonce: quantity('nonce'),
      balance: quantity('balance'),
      code: bytes(account.code ?? '0x', 'code', Number.MAX_SAFE_INTEGER),
      storage: Object.entries(storage as Record<string, unknown>).map(([slot, word]) => [
        setLengthLeft(bytes(slot, `storage slot ${slot}`, 32), 32),
        bytes(word, `storage value at ${slot}`, 32),
      ]),
    }
  })
}

/** Writes the accounts over the state (genesis) `state` holds; the caller commits and reads the root. */
export async function applyState(state: MerkleStateManager, accounts: readonly LoadedAccount[]): Promise<void> {
  for (const { address, nonce, balance, code, storage } of accounts) {
    await state.putAccount(address, createAccount({ nonce, balance }))
    await state.clearStorage(address)
    if (code.length) await state.putCode(address, code)
    for (const [slot, word] of storage) await state.putStorage(address, slot, word)
  }
}
