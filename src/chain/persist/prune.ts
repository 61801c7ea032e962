/**
 * --history N: state older than N blocks is removed from the node store (the data directory's, or the
 * in-memory one) by mark and sweep, one pass every PRUNE_EVERY_BLOCKS blocks (at most N), in the background.
 * Mark: every node reachable from the state roots of the last N blocks and from the live trie's root
 * (the block in progress), storage tries included. Sweep: every node key in a snapshot of the store
 * taken before the mark that is not marked and not written since the pass began (a new flashblock may
 * write a node with an old hash again) is deleted. Code (keys longer than a node hash) is kept. A read
 * of a pruned block's state finds its root gone (Chain.readerAt -> MissingTrieNodeError); a block between
 * N and N + PRUNE_EVERY_BLOCKS deep may still be readable until the next pass.
 */
import type { MerklePatriciaTrie } from '@ethereumjs/mpt'
import { LeafMPTNode } from '@ethereumjs/mpt'
import { KECCAK256_RLP, bytesToHex, createAccountFromRLP, equalsBytes } from '@ethereumjs/util'
import { MissingTrieNodeError } from '../../errors.js'
import { PRUNE_EVERY_BLOCKS, PRUNE_SWEEP_BATCH } from '../../limits.js'

/** A node store a pass sweeps: LevelDB under --data-dir (trie-db.ts), the in-memory map otherwise. Keys are unprefixed hex. */
export interface PrunableNodes {
  /** Whether the node is stored. */
  has(key: string): boolean
  /** Begins a pass: the keys stored now; from now on writes are kept from the sweep. */
  begin(): { keys: AsyncIterable<string>; close(): Promise<void> }
  /** Deletes these nodes, except any written since the pass began (or still waiting to be written). */
  sweep(keys: string[]): Promise<void>
  /** Ends the pass. */
  end(): void
}

export class Pruner {
  private lastPass = 0n
  private running?: Promise<void>

  constructor(
    private readonly nodes: PrunableNodes,
    /** The live trie (its root is the state being built on; it reads through `nodes`). */
    private readonly trie: MerklePatriciaTrie,
    readonly history: number,
    private readonly rootOf: (number: bigint) => Uint8Array | undefined,
    private readonly warn: (message: string) => void,
  ) {}

  /** After each sealed block: starts a pass when one is due and none is running. */
  sealed(head: bigint): void {
    const every = BigInt(Math.min(PRUNE_EVERY_BLOCKS, this.history))
    if (this.running || head - this.lastPass < every || head < BigInt(this.history)) return
    this.lastPass = head
    this.running = this.pass(head)
      .catch((err) => this.warn(`--history: a prune pass failed (nothing is lost, it runs again): ${err}`))
      .finally(() => {
        this.running = undefined
      })
  }

  /** Refuses a state read whose root a pass has removed (geth's missing trie node). */
  check(root: Uint8Array): void {
    if (equalsBytes(root, KECCAK256_RLP) || this.nodes.has(bytesToHex(root).slice(2))) return
    throw new MissingTrieNodeError(bytesToHex(root), this.history)
  }

  /** Waits for a running pass (at close, and for tests). */
  async idle(): Promise<void> {
    await this.running
  }

  private async pass(head: bigint): Promise<void> {
    const candidates = this.nodes.begin() // snapshot: nodes written from now on are not in it
    try {
      const marked = new Set<string>() // 0x-hex node hashes, shared by every walk so shared subtrees are walked once
      const roots = [this.trie.root()]
      for (let n = head - BigInt(this.history) + 1n; n <= head; n++) {
        const root = this.rootOf(n)
        if (root) roots.push(root)
      }
      for (const root of roots) await this.mark(root, marked, true)
      let deletes: string[] = []
      for await (const key of candidates.keys) {
        if (key.length !== 64) continue // code, by prefixed hash: kept
        if (marked.has(`0x${key}`)) continue
        deletes.push(key)
        if (deletes.length >= PRUNE_SWEEP_BATCH) {
          await this.nodes.sweep(deletes)
          deletes = []
        }
      }
      await this.nodes.sweep(deletes)
    } finally {
      await candidates.close()
      this.nodes.end()
    }
  }

  /** Marks the nodes of the trie at `root`; in the account trie, each account's storage trie too. */
  private async mark(root: Uint8Array, marked: Set<string>, accounts: boolean): Promise<void> {
    const storageRoots: Uint8Array[] = []
    const walker = this.trie.shallowCopy(false)
    for await (const { node } of walker.walkTrieIterable(root, [], undefined, undefined, marked)) {
      if (accounts && node instanceof LeafMPTNode) storageRoots.push(createAccountFromRLP(node.value()).storageRoot)
    }
    for (const storageRoot of storageRoots) await this.mark(storageRoot, marked, false)
  }
}
