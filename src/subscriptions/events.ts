/**
 * Feeds the chain's events to the subscription hub and the raw feed: each flashblock to the feed publisher
 * and the flashblocks kinds, each sealed block to newHeads/logs and the feed's end-of-block message, each
 * pool admission to newPendingTransactions. One FormattedBlock per event, shared by every kind.
 */
import { equalsBytes } from '@ethereumjs/util'
import type { ChainEvents } from '../evm/events.js'
import type { BlockRecord, Flashblock, LogRecord } from '../domain/types.js'
import { encodeEndOfBlock, encodeFlashblock, type FeedStyle } from '../feed/encode.js'
import type { FeedPublisher } from '../feed/publisher.js'
import { matchesLog } from '../filters/criteria.js'
import { formatLog } from '../format/log.js'
import { FormattedBlock } from './formatted-block.js'
import type { SubscriptionHub } from './hub.js'
import { logs, publishLogs } from './kinds/logs.js'
import { newFlashblockTransactions, publishFlashblockTransactions } from './kinds/new-flashblock-transactions.js'
import { newFlashblocks, publishNewFlashblock } from './kinds/new-flashblocks.js'
import { newHeads, publishNewHeads } from './kinds/new-heads.js'
import { newPendingTransactions, publishPendingTransaction } from './kinds/new-pending-transactions.js'
import { pendingLogs, publishPendingLogs } from './kinds/pending-logs.js'
import { publishXLayerFlashblock, xlayerFlashblocks } from './kinds/xlayer-flashblocks.js'
import type { FlashblockView } from './flashblock-view.js'

/** The part of the chain's emitter used here. */
interface ChainEventSource {
  on<K extends keyof ChainEvents>(event: K, listener: (...args: ChainEvents[K]) => void): () => void
}

export interface EventWiring {
  events: ChainEventSource
  hub: SubscriptionHub
  publisher: FeedPublisher
  /** `--feed-dialect` and the planned last index per block: how the feed writes flashblocks. */
  feedStyle?: FeedStyle
  /** The pending block as of the newest flashblock (the pending store's view); read on each flashblock. */
  pendingBlock(): BlockRecord | undefined
  onError?(err: unknown, where: string): void
}

/** Connects everything; returns the function that disconnects. */
export function connectChain(wiring: EventWiring): () => void {
  const { hub, publisher } = wiring
  const style = wiring.feedStyle ?? { dialect: 'xlayer' }
  const guard = (where: string, run: () => void) => {
    try {
      run()
    } catch (err) {
      wiring.onError?.(err, where)
    }
  }
  const subscribed = (...kinds: { name: string }[]) => kinds.some((kind) => hub.count(kind.name) > 0)
  // payload id of each block being built, for its end-of-block message
  const payloadIds = new Map<bigint, Uint8Array>()

  const onFlashblock = (flashblock: Flashblock) => {
    payloadIds.set(flashblock.metadata.blockNumber, flashblock.payloadId)
    guard('feed', () => publisher.publish(() => encodeFlashblock(flashblock, style)))
    // nobody subscribed: no view to make, five flashblocks a second
    if (!subscribed(newFlashblocks, pendingLogs, newFlashblockTransactions, xlayerFlashblocks)) return
    const view = flashblockView(flashblock, wiring.pendingBlock())
    if (!view) return
    const pending = new FormattedBlock(view.block)
    guard('newFlashblocks', () => publishNewFlashblock(hub.subscriptionsOf(newFlashblocks), pending))
    guard('pendingLogs', () => publishPendingLogs(hub.subscriptionsOf(pendingLogs), pending, view))
    guard('newFlashblockTransactions', () =>
      publishFlashblockTransactions(hub.subscriptionsOf(newFlashblockTransactions), pending, view),
    )
    guard('flashblocks', () => publishXLayerFlashblock(hub.subscriptionsOf(xlayerFlashblocks), pending, view))
  }

  const onBlock = (block: BlockRecord) => {
    const payloadId = payloadIds.get(block.number)
    for (const number of payloadIds.keys()) if (number <= block.number) payloadIds.delete(number)
    // X Layer's end-of-block message; Base's feed has none
    if (payloadId && style.dialect === 'xlayer')
      guard('feed', () => publisher.publish(() => encodeEndOfBlock(payloadId)))
    if (!subscribed(newHeads, logs)) return
    const formatted = new FormattedBlock(block)
    guard('newHeads', () => publishNewHeads(hub.subscriptionsOf(newHeads), formatted))
    guard('logs', () => publishLogs(hub.subscriptionsOf(logs), formatted))
  }

  // geth sends a reorg's removed logs newest first, each as it was with `removed: true`
  const sendRemoved = (kind: typeof logs, removed: readonly LogRecord[]) => {
    const subscriptions = hub.subscriptionsOf(kind)
    if (subscriptions.length === 0) return
    for (const log of [...removed].reverse()) {
      let json: string | undefined
      for (const s of subscriptions) {
        if (matchesLog(s.params, log)) guard(kind.name, () => s.notify((json ??= JSON.stringify(formatLog(log, true)))))
      }
    }
  }
  const onRemoved = (blocks: readonly BlockRecord[]) =>
    sendRemoved(
      logs,
      blocks.flatMap((b) => b.logs),
    )

  const offs = [
    wiring.events.on('flashblock', onFlashblock),
    wiring.events.on('block', onBlock),
    wiring.events.on('removedBlocks', onRemoved),
    wiring.events.on('removedPendingLogs', (removed) => sendRemoved(pendingLogs, removed)),
    wiring.events.on('pendingTransaction', (tx) =>
      guard('newPendingTransactions', () => publishPendingTransaction(hub.subscriptionsOf(newPendingTransactions), tx)),
    ),
  ]
  return () => {
    for (const off of offs) off()
  }
}

/**
 * The pending block this flashblock produced. The chain emits after the pending store applied it; a block
 * that is not this flashblock's (another payload won the race) is skipped rather than sent wrong.
 */
function flashblockView(flashblock: Flashblock, block: BlockRecord | undefined): FlashblockView | undefined {
  if (!block || !equalsBytes(block.hash, flashblock.diff.blockHash)) return undefined
  const firstNewTx = block.txs.length - flashblock.executed.txs.length
  if (firstNewTx < 0) return undefined
  return { block, index: flashblock.index, firstNewTx }
}
