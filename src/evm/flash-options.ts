/** What FlashBuilder.flash takes besides its candidates, and what it says of the ones it left out. */
import type { TxRecord } from '../domain/types.js'

/** Why a candidate did not make it into this flashblock. `drop`: remove it from the pool. */
export interface Skipped {
  readonly tx: TxRecord
  readonly reason: string
  readonly drop: boolean
}

export interface FlashOptions {
  /**
   * performance.now() after which no further user transaction is started (the rest wait for the next
   * flashblock). The first one always starts: a flashblock that begins past its deadline (a busy machine)
   * still builds, or a pool that always has one ready would never be drained.
   */
  deadline?: number
  /** A follower's state cannot compute roots: it takes this flashblock's from the feed. */
  stateRoot?: Uint8Array
  /**
   * Accounts, slots and code the state manager may keep cached once flushed; past this it is emptied
   * (default LIVE_STATE_CACHED_ENTRIES).
   */
  cachedEntries?: number
  /**
   * Every candidate must run (a follower re-executing what the sequencer included): the first one left out
   * ends the flashblock, whose result the caller throws away, so the rest are not run (and their state not
   * read from the upstream) for nothing.
   */
  allOrNothing?: boolean
}
