/**
 * --history N in memory (the default keeps 128 blocks): every trie node is counted by the nodes and roots
 * that hold it, as geth's hashdb does (Reference/Dereference). A sealed block's root is taken in, counting the
 * nodes it brings (a node counted before holds its children already: the walk stops there); a root leaving
 * the window lets go of the nodes only it held, and those are deleted, walking only them. The work is the
 * block's changes, never the whole state: the mark and sweep a data directory runs (prune.ts) walked all of
 * it every 128 blocks (~1 s of CPU at 180 000 accounts, and a burst of garbage as large as the state's keys).
 *
 * Nodes written while a block was built that its sealed state does not hold (every transaction's rewritten
 * path, each flashblock's state) are held by nothing: they go PRUNE_UNSEALED_KEPT_BLOCKS blocks later, when
 * no read of a flashblock that old is still running, unless written again since. The dev node's roots (its
 * snapshots, an edited block's root) are taken in as the window's are.
 */
import type { MerklePatriciaTrie } from '@ethereumjs/mpt'
import { KECCAK256_RLP, equalsBytes } from '@ethereumjs/util'
import { hexKey } from '../domain/map-keys.js'
import { PRUNE_UNSEALED_KEPT_BLOCKS } from '../limits.js'
import type { MemoryNodes } from './memory-nodes.js'
import { Pruner, nodeChildren } from './persist/prune.js'

export class CountingPruner extends Pruner {
  /** The roots taken in (hex keys): a root not stored (a pruned state rewound to) is not, until it is. */
  private roots = new Set<string>()
  /** The window's block roots by number, as sealed. */
  private readonly window = new Map<bigint, Uint8Array>()
  private head = -1n
  /** The keys written while each of the last blocks was built, oldest first; the last one is being written. */
  private readonly written: Set<string>[]

  constructor(
    private readonly nodes: MemoryNodes,
    trie: MerklePatriciaTrie,
    history: number,
    rootOf: (number: bigint) => Uint8Array | undefined,
  ) {
    super((key) => nodes.has(key), trie, history, rootOf)
    // what is stored before the first block (genesis, --load-state's accounts) goes as a block's writes do
    this.written = [new Set(nodes.keys())]
    nodes.written = this.written[0]
  }

  sealed(head: bigint): void {
    this.removals++
    this.slide(head)
    const wanted = new Set(this.kept(this.window.values()).map((root) => hexKey(root)))
    // taken in before any goes: a node a new root shares with a leaving one is never let go in between
    const counted = new Set<string>()
    for (const key of wanted) if (this.roots.has(key) || this.walk(key, 1)) counted.add(key)
    for (const key of this.roots) if (!wanted.has(key)) this.walk(key, -1)
    this.roots = counted
    const writing = new Set<string>()
    this.written.push(writing)
    this.nodes.written = writing
    if (this.written.length > PRUNE_UNSEALED_KEPT_BLOCKS + 1) this.letGo(this.written.shift()!)
  }

  /** The window's roots after block `head`: one in and one out, or read again after a rewind. */
  private slide(head: bigint): void {
    const history = BigInt(this.history)
    if (head === this.head + 1n) {
      const root = this.rootOf(head)
      if (root) this.window.set(head, root)
      this.window.delete(head - history)
    } else {
      this.window.clear()
      for (let n = head - history + 1n > 0n ? head - history + 1n : 0n; n <= head; n++) {
        const root = this.rootOf(n)
        if (root) this.window.set(n, root)
      }
    }
    this.head = head
  }

  /**
   * The node `key` (an account trie's root) held once more (`by` 1: a node counted for the first time holds its
   * children) or once less (-1: a node held no more lets go of its children and is deleted). False if not stored.
   */
  private walk(key: string, by: 1 | -1): boolean {
    if (!this.nodes.has(key)) return false
    const work: { key: string; accounts: boolean }[] = [{ key, accounts: true }]
    const push = (hash: Uint8Array, accounts: boolean) => {
      if (!equalsBytes(hash, KECCAK256_RLP)) work.push({ key: hexKey(hash), accounts })
    }
    for (let next = work.pop(); next; next = work.pop()) {
      // how many parents and roots hold each node is kept beside its bytes (node-slabs.ts): 0, none counted
      const place = this.nodes.place(next.key)
      if (place < 0) continue // not stored (under a state partly pruned): nothing under it to count
      const bytes = this.nodes.view(place)
      const count = this.nodes.refs(place)
      if (by === 1) {
        this.nodes.setRefs(place, count + 1)
        if (count === 0) nodeChildren(bytes, next.accounts, push)
        continue
      }
      if (count === 0) continue // never held
      this.nodes.setRefs(place, count - 1)
      if (count > 1) continue
      // written lately (again): it goes, if nothing holds it by then, with the writes of its block
      if (!this.writtenLately(next.key)) this.nodes.delete(next.key)
      nodeChildren(bytes, next.accounts, push)
    }
    return true
  }

  /** The oldest block's writes: those nothing holds are deleted, unless written again since. */
  private letGo(keys: Set<string>): void {
    for (const key of keys) {
      if (key.length !== 64 || this.writtenLately(key)) continue // code (a longer key) is kept
      const place = this.nodes.place(key)
      if (place >= 0 && this.nodes.refs(place) === 0) this.nodes.delete(key)
    }
  }

  private writtenLately(key: string): boolean {
    for (const keys of this.written) if (keys.has(key)) return true
    return false
  }
}
