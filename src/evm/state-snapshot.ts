/**
 * The state snapshot (geth's snapshot layer, in small): every account and storage slot of one state root, the
 * newest sealed block's, in flat tables keyed by hashed address and hashed slot, plus a small layer for each
 * pending flashblock's root over it. A read of an account nobody read before is a hash and a table lookup
 * instead of a walk down a trie of every account; the snapshot is complete, so a miss is an absent account.
 *
 * It follows the chain by diffing tries (trie-diff.ts): the base goes from its root to the next sealed root by
 * what differs between them, a layer is what differs between the base and a flashblock's root, so it does not
 * matter who changed the state. It is right for its own root whatever happens: a root it has no table for is
 * read from the trie (history, a dev node's edited state), and a failed diff (a node the store no longer has)
 * drops it back to listing the newest root again, a part per turn of the event loop, reads going to the trie
 * until it is done.
 */
import { RLP } from '@ethereumjs/rlp'
import { equalsBytes, KECCAK256_NULL, KECCAK256_RLP } from '@ethereumjs/util'
import { hexKey } from '../domain/map-keys.js'
import { SNAPSHOT_PENDING_ROOTS } from '../limits.js'
import { FlatTable } from './flat-table.js'
import { RecentNodes } from './recent-nodes.js'
import { type Changed, diffTries, type LoadNode } from './trie-diff.js'

/** Accounts by hashed address, slots by hashed address then hashed slot; in a layer, null marks a deletion. */
type Tables = { accounts: FlatTable; storage: FlatTable }

/** A pending root's layer over the base of one version. */
type Layer = { version: number; root: Uint8Array; tables: Tables }

const newTables = (): Tables => ({ accounts: new FlatTable(32), storage: new FlatTable(64) })
/** A layer's: a few accounts and slots, made at the first read of every new flashblock root. */
const layerTables = (): Tables => ({ accounts: new FlatTable(32, true), storage: new FlatTable(64, true) })

/** Parts a trie is listed in when the snapshot is made: the 256 subtrees two nibbles down. */
const PARTS = 256

export class StateSnapshot {
  private base = newTables()
  /** The base's root once it is complete. */
  private root: Uint8Array | undefined
  /** The newest sealed root, where the base goes next. */
  private head: Uint8Array | undefined
  /** Bumped whenever the base changes: views and layers of an older version are not used. */
  version = 0
  /** Bumped whenever what can be read changes (the base, the pending roots): readers look again. */
  epoch = 0
  private readonly pending = new Map<string, Layer | undefined>()
  /** The newest of the pending roots. */
  private lastPending: Uint8Array | undefined
  /** The newest layer made before the last seal: where the base's move to the head starts from. */
  private sealedLayer: Layer | undefined
  private making: { root: Uint8Array; part: number } | undefined
  private timer: NodeJS.Immediate | undefined
  /** What the diffs that move the base and make the layers read (not the making's: that lists the whole trie). */
  private readonly recent: RecentNodes

  constructor(private readonly load: LoadNode) {
    this.recent = new RecentNodes(load)
  }

  /** Starts making the base from `root`'s trie, a part per turn of the event loop. */
  make(root: Uint8Array): void {
    this.base = newTables()
    this.root = undefined
    this.bump(true)
    this.making = { root: root.slice(), part: 0 }
    this.schedule()
  }

  /** A new sealed root: the base moves there (soon, or at its first read). */
  sealed(root: Uint8Array): void {
    this.head = root.slice()
    this.sealedLayer = this.newestLayer() ?? this.sealedLayer
    this.pending.clear()
    this.lastPending = undefined
    this.recent.turn()
    this.bump(false)
    this.schedule()
  }

  /** A pending flashblock's root, read through a layer over the base. */
  flashblock(root: Uint8Array): void {
    // an empty flashblock repeats the root before it (four of five on an idle chain): readable already
    if (this.lastPending && equalsBytes(root, this.lastPending)) return
    this.lastPending = root.slice()
    this.pending.set(hexKey(root), undefined)
    if (this.pending.size > SNAPSHOT_PENDING_ROOTS) this.pending.delete(this.pending.keys().next().value!)
    this.bump(false)
  }

  /** Whether the base is complete (tests wait for it). */
  get ready(): boolean {
    return this.root !== undefined
  }

  close(): void {
    if (this.timer) clearImmediate(this.timer)
    this.timer = undefined
    this.making = undefined
  }

  /** The tables that answer for `root`, or undefined when the trie must. */
  tablesAt(root: Uint8Array): { base: Tables; layer: Tables | undefined } | undefined {
    if (this.root === undefined) return undefined
    if (this.head && equalsBytes(root, this.head) && !equalsBytes(this.head, this.root)) this.advance()
    if (this.root === undefined) return undefined
    if (equalsBytes(root, this.root)) return { base: this.base, layer: undefined }
    const key = hexKey(root)
    if (!this.pending.has(key)) return undefined
    let layer = this.pending.get(key)
    if (layer?.version !== this.version) {
      const tables = this.layerAt(key, root)
      if (!tables) return undefined
      layer = { version: this.version, root: root.slice(), tables }
      this.pending.set(key, layer)
    }
    return { base: this.base, layer: layer.tables }
  }

  /**
   * A pending root's layer: the newest earlier flashblock's layer and what differs from its root, or what
   * differs from the base. Under load each flashblock of a block adds to the changes since the base, and a
   * diff from the base walked them all again at every flashblock (the first read's cost grew through the
   * block); from the layer before, a diff walks only what this flashblock changed, from nodes that layer's
   * diff read. Either is every difference from the base that is in effect at `root`.
   */
  private layerAt(key: string, root: Uint8Array): Tables | undefined {
    const before = this.newestLayer(key)
    if (before) {
      const tables = { accounts: before.tables.accounts.copy(), storage: before.tables.storage.copy() }
      if (this.tryDiff(before.root, root, tables, true)) return tables
    }
    const tables = layerTables()
    return this.tryDiff(this.root!, root, tables, true) ? tables : undefined
  }

  /** The newest pending root's layer over the current base (before `key`'s root when given). */
  private newestLayer(key?: string): Layer | undefined {
    let newest: Layer | undefined
    for (const [pendingKey, layer] of this.pending) {
      if (pendingKey === key) break
      if (layer?.version === this.version) newest = layer
    }
    return newest
  }

  private bump(base: boolean): void {
    if (base) this.version++
    this.epoch++
  }

  private schedule(): void {
    if (this.timer) return
    // not unref'd: Node lets the loop sleep in its poll phase while only unref'd immediates wait, so a part
    // ran only when something else woke it (an idle service's next flashblock timer: ~50 s to make the base of
    // a new chain, every read meanwhile a trie walk; an in-process loop of calls never made it). close() ends it.
    this.timer = setImmediate(() => this.step())
  }

  /** One part of the making, or the base's move to the head. */
  private step(): void {
    this.timer = undefined
    const making = this.making
    if (making) {
      const prefix = [making.part >> 4, making.part & 15]
      try {
        diffTries(
          this.load,
          KECCAK256_RLP,
          making.root,
          (key, _, after) => this.account(this.load, this.base, key, null, after, false),
          prefix,
        )
      } catch {
        // the root's nodes went (pruned) while it was listed: start again from the newest
        this.make(this.head ?? making.root)
        return
      }
      if (++making.part < PARTS) {
        this.schedule()
        return
      }
      this.making = undefined
      this.root = making.root
      this.bump(true)
    }
    if (this.head && this.root && !equalsBytes(this.head, this.root)) this.advance()
  }

  /**
   * The base moved to the head. From the newest flashblock's layer when one was made over this base: the base
   * takes the layer's entries (every difference from it in effect at the layer's root; a block's root is
   * most often its last flashblock's), then what differs from the layer's root to the head. A diff from the
   * base walked and decoded the whole block's changes again, in the first read after every block.
   */
  private advance(): void {
    const from = this.root!
    const to = this.head!
    this.root = undefined
    const layer = this.sealedLayer
    this.sealedLayer = undefined
    let start = from
    if (layer?.version === this.version) {
      applyLayer(this.base, layer.tables)
      start = layer.root
    }
    if (this.tryDiff(start, to, this.base, false)) {
      this.root = to
      this.bump(true)
    } else this.make(to)
  }

  /** Writes into `tables` what differs from `from` to `to`; false when a node was missing. */
  private tryDiff(from: Uint8Array, to: Uint8Array, tables: Tables, layer: boolean): boolean {
    try {
      const load = this.recent.get
      diffTries(load, from, to, (key, before, after) => this.account(load, tables, key, before, after, layer))
      return true
    } catch {
      return false
    }
  }

  /** One account's change, and its storage's when its storage root changed. */
  private account(
    load: LoadNode,
    tables: Tables,
    key: Uint8Array,
    before: Uint8Array | null,
    after: Uint8Array | null,
    layer: boolean,
  ): void {
    const fieldsAfter = after && (RLP.decode(after) as Uint8Array[])
    if (fieldsAfter) tables.accounts.set(key, slim(fieldsAfter))
    else if (layer) tables.accounts.set(key, null)
    else tables.accounts.delete(key)
    const rootBefore = before ? (RLP.decode(before) as Uint8Array[])[2]! : KECCAK256_RLP
    const rootAfter = fieldsAfter ? fieldsAfter[2]! : KECCAK256_RLP
    if (equalsBytes(rootBefore, rootAfter)) return
    const slot: Changed = (slotKey, _, value) => {
      const id = joined(key, slotKey)
      if (value) tables.storage.set(id, value)
      else if (layer) tables.storage.set(id, null)
      else tables.storage.delete(id)
    }
    diffTries(load, rootBefore, rootAfter, slot)
  }
}

/** The base at the layer's root: its entries set, its absences deleted. */
function applyLayer(base: Tables, layer: Tables): void {
  for (const name of ['accounts', 'storage'] as const)
    for (const [key, value] of layer[name].entries())
      if (value === null) base[name].delete(key)
      else base[name].set(key, value)
}

/** A table's key of a slot: the hashed address, then the hashed slot. */
function joined(address: Uint8Array, slot: Uint8Array): Uint8Array {
  const key = new Uint8Array(64)
  key.set(address, 0)
  key.set(slot, 32)
  return key
}

/** An account without code or storage (most of them) kept as its nonce and balance only. */
function slim(fields: Uint8Array[]): Uint8Array {
  const plain = equalsBytes(fields[2]!, KECCAK256_RLP) && equalsBytes(fields[3]!, KECCAK256_NULL)
  return RLP.encode(plain ? fields.slice(0, 2) : fields)
}

const scratch = new Uint8Array(64)

/** One root's reads through the snapshot: undefined when it cannot answer for the root (then the trie does). */
export class SnapshotReads {
  private epoch = -1
  private tables: ReturnType<StateSnapshot['tablesAt']>

  constructor(
    private readonly snapshot: StateSnapshot,
    private readonly root: Uint8Array,
  ) {}

  /** The account's table value (flat-values.ts reads it), null when absent. */
  account(hashedAddress: Uint8Array): Uint8Array | null | undefined {
    const tables = this.current()
    if (!tables) return undefined
    const layered = tables.layer?.accounts.get(hashedAddress)
    return layered !== undefined ? layered : (tables.base.accounts.get(hashedAddress) ?? null)
  }

  /** The slot's value as its trie leaf holds it (RLP), null when unset; a view: decode it at once. */
  storage(hashedAddress: Uint8Array, hashedSlot: Uint8Array): Uint8Array | null | undefined {
    const tables = this.current()
    if (!tables) return undefined
    scratch.set(hashedAddress, 0)
    scratch.set(hashedSlot, 32)
    const layered = tables.layer?.storage.get(scratch)
    return layered !== undefined ? layered : (tables.base.storage.get(scratch) ?? null)
  }

  private current(): ReturnType<StateSnapshot['tablesAt']> {
    if (this.epoch !== this.snapshot.epoch) {
      this.tables = this.snapshot.tablesAt(this.root)
      this.epoch = this.snapshot.epoch
    }
    return this.tables
  }
}
