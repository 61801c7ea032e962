/**
 * --dump-state FILE: the state at the head as anvil's state file (`anvil --dump-state`), so either tool
 * loads the other's file: `accounts` maps each address to its nonce, balance, code and storage (slot and
 * value as 32-byte hex); `block` is the head's block environment in anvil's field names; `blocks` and
 * `transactions` are empty (history is not carried: a chain loaded from the file starts at block 0).
 * Addresses and slots come back from the trie's hashed keys through the recorded preimages.
 */
import { renameSync, writeFileSync } from 'node:fs'
import { RLP } from '@ethereumjs/rlp'
import type { MerkleStateManager } from '@ethereumjs/statemanager'
import { Address, bytesToHex, hexToBytes, setLengthLeft } from '@ethereumjs/util'
import type { BlockRecord } from '../../domain/types.js'
import type { Preimages } from './preimages.js'
import type { VM } from '@ethereumjs/vm'
import { stateAt } from '../../evm/state-views.js'
import { liveTrie } from '../../evm/patches/fields.js'

interface DumpedAccount {
  nonce: number
  balance: string
  code: string
  storage: Record<string, string>
}

export interface StateDump {
  block: Record<string, unknown>
  accounts: Record<string, DumpedAccount>
  best_block_number: string
  blocks: unknown[]
  transactions: unknown[]
  historical_states: null
}

const hex = (n: bigint) => `0x${n.toString(16)}`

/** `state` is a read view at `head`'s state root. */
async function dumpState(state: MerkleStateManager, head: BlockRecord, preimages: Preimages): Promise<StateDump> {
  const preimage = preimages.lookup()
  const trie = liveTrie(state)
  const { values } = await trie.getValueMap()
  const accounts: Record<string, DumpedAccount> = {}
  for (const hashed of Object.keys(values).sort()) {
    const raw = preimage(hashed)
    if (!raw) throw new Error(`--dump-state: no preimage for account key ${hashed}; the state cannot be named`)
    const address = new Address(raw)
    const account = (await state.getAccount(address))!
    const storage: Record<string, string> = {}
    const slots = await state.dumpStorage(address)
    for (const hashedSlot of Object.keys(slots).sort()) {
      const slot = preimage(hashedSlot)
      if (!slot) throw new Error(`--dump-state: no preimage for slot key ${hashedSlot} of ${address}`)
      const value = RLP.decode(hexToBytes(slots[hashedSlot] as `0x${string}`)) as Uint8Array
      storage[bytesToHex(setLengthLeft(slot, 32))] = bytesToHex(setLengthLeft(value, 32))
    }
    accounts[address.toString()] = {
      nonce: Number(account.nonce),
      balance: hex(account.balance),
      code: bytesToHex(await state.getCode(address)),
      storage,
    }
  }
  const { header } = head
  return {
    block: {
      number: hex(header.number),
      beneficiary: header.coinbase.toString(),
      timestamp: hex(header.timestamp),
      gas_limit: Number(header.gasLimit),
      basefee: Number(header.baseFeePerGas ?? 0n),
      difficulty: hex(header.difficulty),
      prevrandao: bytesToHex(header.mixHash),
      blob_excess_gas_and_price: { excess_blob_gas: Number(header.excessBlobGas ?? 0n), blob_gasprice: 1 },
    },
    accounts,
    best_block_number: hex(header.number),
    blocks: [],
    transactions: [],
    historical_states: null,
  }
}

/** The state at `root` (the head's, or the dev node's edit of it) as a state file, with `head`'s block environment. */
export function stateDumpOf(vm: VM, root: Uint8Array, head: BlockRecord, preimages: Preimages): Promise<StateDump> {
  return dumpState(stateAt(vm, root), head, preimages)
}

/**
 * The state at `head` (at `root` when the dev node edited it) into `file`: written next to it and renamed
 * over it, so a crash mid-write never leaves half a file.
 */
export async function writeStateFile(
  file: string,
  vm: VM,
  head: BlockRecord,
  preimages: Preimages,
  root = head.header.stateRoot,
): Promise<void> {
  const dump = await stateDumpOf(vm, root, head, preimages)
  const temporary = `${file}.partial`
  writeFileSync(temporary, `${JSON.stringify(dump, null, 2)}\n`)
  renameSync(temporary, file)
}
