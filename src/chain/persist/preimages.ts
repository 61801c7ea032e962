/**
 * Preimages of the state trie's hashed keys (keccak of an address, keccak of a storage slot), which a
 * state dump needs to name accounts and slots (geth keeps them for the same reason with --cache.preimages).
 * Recorded by watching the chain's state manager: every account, code or slot written goes through
 * putAccount / putCode / putStorage. With a data directory they go to disk in the batch of the
 * flashblock or block that wrote them (drain); without one they stay in memory, as the whole chain does
 * (packed: packed-bytes.ts).
 */
import type { MerkleStateManager } from '@ethereumjs/statemanager'
import { bytesToHex, hexToBytes, unprefixedHexToBytes } from '@ethereumjs/util'
import { keccak256 } from '../../evm/crypto.js'
import type { Level } from './db.js'
import { preimageKey } from './keys.js'
import type { LevelOp } from './trie-db.js'
import { hexKey } from '../../domain/map-keys.js'
import { PREIMAGES_KNOWN_ON_DISK } from '../../limits.js'
import { PackedBytes } from '../packed-bytes.js'

export class Preimages {
  /**
   * Written since the last drain, with a data directory: each preimage's hex, which is all of it (a copy of its
   * bytes beside cost ~200 bytes of heap an account: 36 MB after an hour of new addresses).
   */
  private readonly fresh = new Set<string>()
  /** Without a data directory: all of them, packed (no heap object each). */
  private readonly all?: PackedBytes
  /** Drained to disk lately (cleared when full: a forgotten one is merely written again). */
  private readonly known = new Set<string>()

  constructor(private readonly db?: Level) {
    if (!db) this.all = new PackedBytes()
  }

  /** Records the keys of every write through `state` from now on. */
  watch(state: MerkleStateManager): void {
    const { putAccount, putCode, putStorage } = state
    const note = (bytes: Uint8Array) => {
      if (this.all) return this.all.add(bytes)
      const key = hexKey(bytes)
      if (!this.known.has(key)) this.fresh.add(key)
    }
    state.putAccount = (address, account) => {
      note(address.bytes)
      return putAccount.call(state, address, account)
    }
    state.putCode = (address, code) => {
      note(address.bytes)
      return putCode.call(state, address, code)
    }
    state.putStorage = (address, key, value) => {
      note(address.bytes)
      note(key)
      return putStorage.call(state, address, key, value)
    }
  }

  /** The preimages recorded since the last drain, as operations for the caller's next batch. */
  drain(): LevelOp[] {
    if (!this.db) return []
    const ops: LevelOp[] = []
    if (this.known.size + this.fresh.size > PREIMAGES_KNOWN_ON_DISK) this.known.clear()
    for (const key of this.fresh) {
      const preimage = unprefixedHexToBytes(key)
      ops.push({ type: 'put', key: preimageKey(keccak256(preimage)), value: preimage })
      this.known.add(key)
    }
    this.fresh.clear()
    return ops
  }

  /** A lookup from hashed key (hex) to preimage over everything recorded, for one dump. */
  lookup(): (hashed: string) => Uint8Array | undefined {
    const recent = new Map<string, Uint8Array>()
    const held = this.all ?? [...this.fresh].map((key) => unprefixedHexToBytes(key))
    for (const preimage of held) recent.set(bytesToHex(keccak256(preimage)), preimage)
    return (hashed) => recent.get(hashed) ?? this.db?.getSync(preimageKey(hexToBytes(hashed as `0x${string}`)))
  }
}
