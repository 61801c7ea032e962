/**
 * GET /ready for the embedded chain: ready while it seals blocks, that is while the last one (or the start of
 * its timers, before the first) is at most READY_MAX_HEAD_LAG_BLOCKS block times old.
 */
import type { Readiness } from '../capabilities/backend-status.js'
import type { ChainEvents, TypedEmitter } from '../evm/events.js'
import { READY_MAX_HEAD_LAG_BLOCKS } from '../limits.js'

export class SealingReadiness {
  private lastSealedAt = Date.now()

  constructor(
    events: TypedEmitter<ChainEvents>,
    private readonly blockTimeMs: number,
    private readonly height: () => bigint,
  ) {
    events.on('block', () => {
      this.lastSealedAt = Date.now()
    })
  }

  /** The timers start: the first block is due one block time from now. */
  started(): void {
    this.lastSealedAt = Date.now()
  }

  now(): Readiness {
    const head = Number(this.height())
    // block times since the last seal, rounded down
    const lagBlocks = Math.max(0, Math.floor((Date.now() - this.lastSealedAt) / this.blockTimeMs))
    if (lagBlocks > READY_MAX_HEAD_LAG_BLOCKS)
      return { ready: false, reason: `no block sealed for ${lagBlocks} block times`, head, lagBlocks }
    return { ready: true, head, lagBlocks }
  }
}
