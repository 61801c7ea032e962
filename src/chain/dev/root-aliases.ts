/**
 * State roots the dev node edited. anvil_setBalance and its kin change the state under the latest block
 * (and the open one) without building a block: the block keeps its header, and reads of its root are sent
 * to the edited root instead, as anvil serves its edited database under an unchanged head. The next block
 * is built on the edited state, so its own root needs no alias.
 */
import { keyOf } from '../../domain/block-record.js'

export class RootAliases {
  private aliases = new Map<string, Uint8Array>()

  /** The root whose state `root` stands for now (itself unless edited). */
  resolve(root: Uint8Array): Uint8Array {
    // the common case (no edits) costs a size check: this runs on every state read
    return this.aliases.size === 0 ? root : (this.aliases.get(keyOf(root)) ?? root)
  }

  set(root: Uint8Array, edited: Uint8Array): void {
    this.aliases.set(keyOf(root), edited)
  }

  /** A copy for a snapshot. */
  copy(): Map<string, Uint8Array> {
    return new Map(this.aliases)
  }

  restore(aliases: ReadonlyMap<string, Uint8Array>): void {
    this.aliases = new Map(aliases)
  }
}
