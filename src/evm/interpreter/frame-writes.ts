/**
 * What an interpreted outermost frame leaves in runTx's state and journal, as @ethereumjs's own frame leaves
 * them when runCall returns: each storage slot's last value (its SSTOREs wrote through one by one; the last
 * is what the state holds, and a slot back at its committed value leaves the trie as it was), and the
 * accounts EIP-161 counts touched, which runTx's cleanup then deletes where empty. Logs and the refund are in
 * the frame's result. Transient storage is dropped: the shipped frame's end clears it (postMessageCleanup).
 * A failed frame leaves only RIPEMD-160's touch, the one runCall's revert keeps.
 */
import type { StateManagerInterface } from '@ethereumjs/common'
import type { ExecResult } from '@ethereumjs/evm'
import type { Address } from '@ethereumjs/util'
import type { Host } from './host.js'
import type { Journal } from './journal.js'
import { isRipemd } from './ops-call.js'
import * as w from './word.js'

/** `touch`: EIP-161's touch in runTx's journal (patches/interpreted-frames.ts reaches it). */
export async function applyFrameWrites(
  state: StateManagerInterface,
  touch: (address: Address) => void,
  host: Host,
  result: ExecResult,
): Promise<void> {
  const failed = result.exceptionError !== undefined
  for (const a of host.accounts()) {
    if (a.eip161 && (!failed || isRipemd(a.bytes))) touch(a.address)
    if (failed || a.storage === undefined) continue
    for (const [key, slot] of a.storage) {
      if (slot.current < 0 || host.journal.same(slot.current, slot.original)) continue
      await state.putStorage(a.address, slotNumber(key), valueBytes(host.journal, slot.current))
    }
  }
}

/** The 32 bytes of a slot's number from its wordKey (domain/map-keys.ts): a number, or 16-bit chunks low first. */
function slotNumber(key: number | string): Uint8Array {
  const out = new Uint8Array(32)
  if (typeof key === 'number') {
    let n = key
    for (let i = 31; n > 0; i--) {
      out[i] = n % 256
      n = Math.floor(n / 256)
    }
    return out
  }
  for (let c = 0; c < 16; c++) {
    const chunk = key.charCodeAt(c)
    out[31 - 2 * c] = chunk & 0xff
    out[30 - 2 * c] = chunk >>> 8
  }
  return out
}

/** The 32 bytes of the journal's value at `at`. */
function valueBytes(journal: Journal, at: number): Uint8Array {
  const out = new Uint8Array(32)
  w.toBytes32(journal.words, at, out, 0)
  return out
}
