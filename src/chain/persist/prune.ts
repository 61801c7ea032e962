/**
 * --history N: state older than N blocks is removed from the node store. In memory nodes are counted as
 * blocks come and go (../memory-pruner.ts); a data directory's are removed by mark and sweep, one pass every
 * PRUNE_EVERY_BLOCKS blocks (at most N), in the background (a count per node would hold the whole state's
 * keys in the heap, which the directory is there to spare). Mark: every node reachable from the state roots of the last N blocks and from the live trie's root
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

/** A node store a pass sweeps: LevelDB under --data-dir (trie-db.ts). Keys are unprefixed hex. */
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

/**
 * What a chain with --history holds on to: the state of its last `history` blocks. Two ways to let the rest go:
 * a data directory's SweepingPruner (below), an in-memory chain's CountingPruner (../memory-pruner.ts).
 */
export abstract class Pruner {
  protected dev: KeptRoots = { resolve: (root) => root, held: () => [] }
  /** Bumped when nodes may go (before and after): a root check()ed since is stored still. */
  removals = 0

  constructor(
    /** Whether the node store holds this node (unprefixed hex key). */
    private readonly stored: (key: string) => boolean,
    /** The live trie (its root is the state being built on; it reads through the node store). */
    protected readonly trie: MerklePatriciaTrie,
    readonly history: number,
    protected readonly rootOf: (number: bigint) => Uint8Array | undefined,
  ) {}

  /** After each sealed block. */
  abstract sealed(head: bigint): void

  /** The oldest block whose state is sure to be kept (older ones may be until the next pass). */
  oldestKept(head: bigint): bigint {
    const oldest = head - BigInt(this.history) + 1n
    return oldest > 0n ? oldest : 0n
  }

  /** The dev node's roots (its edits and snapshots), asked at every pass (in memory, at every block). */
  keep(dev: KeptRoots): void {
    this.dev = dev
  }

  /** Refuses a state read whose root a pass has removed (geth's missing trie node). */
  check(root: Uint8Array): void {
    // hexKey: one flat string (bytesToHex's rope would be flattened again by the lookup); this runs on every read
    if (equalsBytes(root, KECCAK256_RLP) || this.stored(hexKey(root))) return
    throw new MissingTrieNodeError(bytesToHex(root), this.history)
  }

  /** Waits for a running pass (at close, and for tests). */
  async idle(): Promise<void> {}

  /** The roots whose state is kept: the live trie's, the dev node's, and (as the dev node reads them) `window`'s. */
  protected kept(window: Iterable<Uint8Array>): Uint8Array[] {
    const roots = [this.trie.root(), ...this.dev.held()]
    for (const root of window) roots.push(this.dev.resolve(root))
    return roots
  }
}

/** The data directory's: a mark and sweep pass every PRUNE_EVERY_BLOCKS blocks, in the background. */
export class SweepingPruner extends Pruner {
  private lastPass = 0n
  private running?: Promise<void>

  constructor(
    private readonly nodes: PrunableNodes,
    trie: MerklePatriciaTrie,
    history: number,
    rootOf: (number: bigint) => Uint8Array | undefined,
    private readonly warn: (message: string) => void,
  ) {
    super((key) => nodes.has(key), trie, history, rootOf)
  }

  /** Starts a pass when one is due and none is running. */
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

  override async idle(): Promise<void> {
    await this.running
  }

  private async sweep(keys: string[]): Promise<void> {
    this.removals++
    await this.nodes.sweep(keys)
    this.removals++
  }

  private async pass(head: bigint): Promise<void> {
    const candidates = this.nodes.begin() // snapshot: nodes written from now on are not in it
    try {
      const marked = new Set<string>() // unprefixed hex node hashes, shared by every walk: shared subtrees are walked once
      const window: Uint8Array[] = []
      for (let n = head - BigInt(this.history) + 1n; n <= head; n++) {
        const root = this.rootOf(n)
        if (root) window.push(root)
      }
      await markReachable(this.nodes, this.kept(window), marked)
      let deletes: string[] = []
      for await (const key of candidates.keys) {
        if (key.length !== 64) continue // code, by prefixed hash: kept
        if (marked.has(key)) continue
        deletes.push(key)
        if (deletes.length >= PRUNE_SWEEP_BATCH) {
          await this.sweep(deletes)
          deletes = []
        }
      }
      await this.sweep(deletes)
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
  const push = (hash: Uint8Array, accounts: boolean) => work.push({ hash, accounts })
  let slice = 0
  for (let next = work.pop(); next; next = work.pop()) {
    if (equalsBytes(next.hash, KECCAK256_RLP)) continue
    const key = hexKey(next.hash)
    if (marked.has(key)) continue
    const bytes = nodes.get(key)
    if (!bytes) continue // not stored (a root a pass already removed): nothing under it to keep
    marked.add(key)
    nodeChildren(bytes, next.accounts, push)
    if (++slice === PRUNE_MARK_SLICE) {
      slice = 0
      await new Promise((resolve) => setImmediate(resolve))
    }
  }
}

/**
 * The stored nodes a node's bytes refer to, each with whether it is an account trie's: a branch's and an
 * extension's children (those under 32 bytes are inlined in the parent: their children are reported), and an
 * account leaf's storage root (an account trie's leaf holds an RLP list; a storage trie's, a string).
 */
export function nodeChildren(
  bytes: Uint8Array,
  accounts: boolean,
  push: (hash: Uint8Array, accounts: boolean) => void,
): void {
  const visit = (raw: RlpNode) => {
    if (raw.length === 17) {
      for (let i = 0; i < 16; i++) child(raw[i]!)
    } else if (raw.length === 2) {
      const flag = (raw[0] as Uint8Array)[0]! >> 4
      if (flag < 2)
        child(raw[1]!) // an extension
      else if (accounts) push(RLP.decode(raw[1] as Uint8Array)[2] as Uint8Array, false)
    }
  }
  const child = (ref: RlpNode[number]) => {
    if (ref instanceof Uint8Array) {
      if (ref.length === 32) push(ref, accounts)
    } else visit(ref) // a node under 32 bytes, inlined in its parent
  }
  visit(RLP.decode(bytes) as RlpNode)
}

type RlpNode = (Uint8Array | RlpNode)[]
