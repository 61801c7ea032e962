/**
 * BLOCKHASH for the EVM, answered from the canonical store instead of @ethereumjs/blockchain (whose
 * putBlock re-validates every signature and whose getBlock re-decodes; evm-engine.md section 7).
 * Pass it as `blockchain` to createEVM/createVM; the EVM only calls getBlock(n) for the last 256 blocks.
 */
import type { EVMMockBlockchainInterface } from '@ethereumjs/evm'
import type { CanonicalStore } from './store.js'

export class StoreBlockHashes implements EVMMockBlockchainInterface {
  /** `older`: where blocks below the store's first come from (a fork's upstream). */
  constructor(
    private readonly store: CanonicalStore,
    private readonly older?: EVMMockBlockchainInterface,
  ) {}

  async getBlock(blockId: number): Promise<{ hash(): Uint8Array }> {
    if (this.older && BigInt(blockId) < this.store.genesis().number) return this.older.getBlock(blockId)
    const block = this.store.byNumber(BigInt(blockId))
    const hash = block ? block.hash : new Uint8Array(32)
    return { hash: () => hash }
  }

  async putBlock(): Promise<void> {}

  shallowCopy(): StoreBlockHashes {
    return this
  }
}
