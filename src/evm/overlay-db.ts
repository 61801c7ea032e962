/**
 * A trie node store that reads through to another and keeps its own writes: the state of a simulation
 * (eth_simulateV1 computes real state roots, so its tries are written) never reaches the chain's store.
 * Its copies (the storage tries of the same state) share its writes.
 */
import type { BatchDBOp, DB, EncodingOpts } from '@ethereumjs/util'
import { bytesToUnprefixedHex } from '@ethereumjs/util'

type Key = Uint8Array | string | number
type Value = Uint8Array | string

const GONE = Symbol('deleted')

export class OverlayDB<K extends Key = string, V extends Value = string> implements DB<K, V> {
  constructor(
    private readonly base: DB<K, V>,
    private readonly own = new Map<string, V | typeof GONE>(),
  ) {}

  private static id(key: Key): string {
    return key instanceof Uint8Array ? bytesToUnprefixedHex(key) : key.toString()
  }

  async get(key: K, opts?: EncodingOpts): Promise<V | undefined> {
    const own = this.own.get(OverlayDB.id(key))
    if (own === GONE) return undefined
    return own ?? this.base.get(key, opts)
  }

  async put(key: K, value: V): Promise<void> {
    this.own.set(OverlayDB.id(key), value)
  }

  async del(key: K): Promise<void> {
    this.own.set(OverlayDB.id(key), GONE)
  }

  async batch(ops: BatchDBOp<K, V>[]): Promise<void> {
    for (const op of ops) {
      if (op.type === 'put') await this.put(op.key, op.value)
      else await this.del(op.key)
    }
  }

  shallowCopy(): DB<K, V> {
    return new OverlayDB(this.base, this.own)
  }

  async open(): Promise<void> {}
}
