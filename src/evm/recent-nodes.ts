/**
 * The nodes the state snapshot's last diffs read, for the next ones: a block's diff starts from the root the
 * previous block's ended at (its new side is this one's old side), and every pending layer diffs from the same
 * base root. Without them each diff read and decoded both sides' paths again. Two generations, turned at each
 * sealed block (and when one fills): what the last two blocks' diffs read, never the whole trie.
 */
import { equalsBytes } from '@ethereumjs/util'
import { hashId } from '../domain/map-keys.js'
import { SNAPSHOT_RECENT_NODES } from '../limits.js'
import type { LoadNode } from './trie-diff.js'

type Known = { hash: Uint8Array; node: ReturnType<LoadNode> }

export class RecentNodes {
  private current = new Map<number, Known>()
  private previous = new Map<number, Known>()

  constructor(private readonly load: LoadNode) {}

  /** The node named `hash`: one a recent diff read, or the store's. */
  readonly get: LoadNode = (hash) => {
    const id = hashId(hash)
    const known = this.current.get(id) ?? this.previous.get(id)
    if (known !== undefined && equalsBytes(known.hash, hash)) {
      this.current.set(id, known)
      return known.node
    }
    const node = this.load(hash)
    // the hash is a view of its parent's bytes, which this generation most likely holds anyway
    this.current.set(id, { hash, node })
    if (this.current.size >= SNAPSHOT_RECENT_NODES) this.turn()
    return node
  }

  /** Forgets what the diffs before the last turn read. */
  turn(): void {
    this.previous = this.current
    this.current = new Map()
  }
}
