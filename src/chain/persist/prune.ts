/**
 * --history N: state older than N blocks is removed from the node store (the data directory's, or the
 * in-memory one) by mark and sweep, one pass every PRUNE_EVERY_BLOCKS blocks (at most N), in the background.
 * Mark: every node reachable from the state roots of the last N blocks and from the live trie's root
 * (the block in progress), storage tries included. Sweep: every node key in a snapshot of the store
 * taken before the mark that is not marked and not written since the pass began (a new flashblock may
 * write a node with an old hash again) is deleted. Code (keys longer than a node hash) is kept. A read
 * of a pruned block's state finds its root gone (Chain.readerAt -> MissingTrieNodeError); a block between
 * N and N + PRUNE_EVERY_BLOCKS deep may still be readable until the next pass. The dev node's roots are kept
 * too (keep()): the edited root a block's reads go to, and the state of every evm_snapshot and of anvil_reset's
 * start, so a fixture reverted to after a thousand blocks (Hardhat's loadFixture) still has its state.
 */
import type { MerklePatriciaTrie } from '@ethereumjs/mpt'
import { RLP } from '@ethereumjs/rlp'
import { KECCAK256_RLP, bytesToHex, equalsBytes } from '@ethereumjs/util'
import { hexKey } from '../../domain/map-keys.js'
import { MissingTrieNodeError } from '../../errors.js'
import { PRUNE_EVERY_BLOCKS, PRUNE_MARK_SLICE, PRUNE_SWEEP_BATCH } from '../../limits.js'

/** A node store a pass sweeps: LevelDB under --data-dir (trie-db.ts), the in-memory map otherwise. Keys are unprefixed hex. */
export interface PrunableNodes {
  /** Whether the node is stored. */
  has(key: string): boolean
  /** The node's bytes, if stored (read without a promise: a pass reads every live node). */
  get(key: string): Uint8Array | undefined
  /** Begins a pass: the keys stored now; from now on writes are kept from the sweep. */
  begin(): { keys: AsyncIterable<string>; close(): Promise<void> }
  /** Deletes these nodes, except any written since the pass began (or still waiting to be written). */
  sweep(keys: string[]): Promise<void>
  /** Ends the pass. */
  end(): void
}

/** The dev node's part in a pass: where a block's state is read (an edited root) and the roots it holds on to. */
export interface KeptRoots {
  resolve(root: Uint8Array): Uint8Array
  held(): Iterable<Uint8Array>
}

export class Pruner {
  private lastPass = 0n
  private running?: Promise<void>
  private dev: KeptRoots = { resolve: (root) => root, held: () => [] }

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

  /** The oldest block whose state is sure to be kept (older ones may be until the next pass). */
  oldestKept(head: bigint): bigint {
    const oldest = head - BigInt(this.history) + 1n
    return oldest > 0n ? oldest : 0n
  }

  /** The dev node's roots (its edits and snapshots), asked at every pass. */
  keep(dev: KeptRoots): void {
    this.dev = dev
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
      const marked = new Set<string>() // unprefixed hex node hashes, shared by every walk: shared subtrees are walked once
      const roots = [this.trie.root(), ...this.dev.held()]
      for (let n = head - BigInt(this.history) + 1n; n <= head; n++) {
        const root = this.rootOf(n)
        if (root) roots.push(this.dev.resolve(root))
      }
      await markReachable(this.nodes, roots, marked)
      let deletes: string[] = []
      for await (const key of candidates.keys) {
        if (key.length !== 64) continue // code, by prefixed hash: kept
        if (marked.has(key)) continue
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
}

/**
 * Marks every node reachable from `roots` (account tries, and each account's storage trie): a walk over the
 * stored bytes, decoding only the RLP, PRUNE_MARK_SLICE nodes between pauses so flashblocks keep their
 * cadence. The trie's own async walk cost tens of µs a node (a promise per level, a generator per node) and,
 * as the state grows, a pass every 64 blocks grew with it: at 180 000 accounts most of a core.
 */
async function markReachable(nodes: PrunableNodes, roots: Uint8Array[], marked: Set<string>): Promise<void> {
  const work: { hash: Uint8Array; accounts: boolean }[] = roots.map((hash) => ({ hash, accounts: true }))
  let slice = 0
  const visit = (raw: RlpNode, accounts: boolean) => {
    if (raw.length === 17) {
      for (let i = 0; i < 16; i++) child(raw[i]!, accounts)
    } else if (raw.length === 2) {
      const flag = (raw[0] as Uint8Array)[0]! >> 4
      if (flag < 2)
        child(raw[1]!, accounts) // an extension
      else if (accounts) work.push({ hash: RLP.decode(raw[1] as Uint8Array)[2] as Uint8Array, accounts: false })
    }
  }
  const child = (ref: RlpNode[number], accounts: boolean) => {
    if (ref instanceof Uint8Array) {
      if (ref.length === 32) work.push({ hash: ref, accounts })
    } else visit(ref, accounts) // a node under 32 bytes, inlined in its parent
  }
  for (let next = work.pop(); next; next = work.pop()) {
    if (equalsBytes(next.hash, KECCAK256_RLP)) continue
    const key = hexKey(next.hash)
    if (marked.has(key)) continue
    const bytes = nodes.get(key)
    if (!bytes) continue // not stored (a root a pass already removed): nothing under it to keep
    marked.add(key)
    visit(RLP.decode(bytes) as RlpNode, next.accounts)
    if (++slice === PRUNE_MARK_SLICE) {
      slice = 0
      await new Promise((resolve) => setImmediate(resolve))
    }
  }
}

type RlpNode = (Uint8Array | RlpNode)[]
