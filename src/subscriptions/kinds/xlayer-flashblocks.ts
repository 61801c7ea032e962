/**
 * X Layer's `flashblocks` kind (xlayer-reth): with `headerInfo`, the pending block's header at every
 * flashblock as `{type: "header", header}`; for each new transaction whose sender, recipient or a log
 * emitter is among `subscribeAddresses` (none when the list is empty: the filter selects by address),
 * `{type: "transaction", transaction: {txHash, txData?, receipt?}}`.
 */
import { address } from '../../format/hex.js'
import { parseXLayerFilter, type XLayerFilter } from '../xlayer-filter.js'
import type { FormattedBlock } from '../formatted-block.js'
import type { ReceiptRecord, TxRecord } from '../../domain/types.js'
import type { FlashblockView } from '../flashblock-view.js'
import type { Subscription, SubscriptionKindSpec } from '../types.js'

export const xlayerFlashblocks: SubscriptionKindSpec<XLayerFilter> = {
  name: 'flashblocks',
  endpoints: ['flashblocks'],
  parseParams: (args) => parseXLayerFilter(args),
}

export function publishXLayerFlashblock(
  subscriptions: readonly Subscription<XLayerFilter>[],
  pending: FormattedBlock,
  view: FlashblockView,
): void {
  if (subscriptions.length === 0) return
  let header: string | undefined
  for (const s of subscriptions) {
    if (s.params.headerInfo) s.notify((header ??= `{"type":"header","header":${pending.header()}}`))
  }
  for (let i = view.firstNewTx; i < view.block.txs.length; i++) {
    let touched: Set<string> | undefined
    // one serialization per (txInfo, txReceipt) combination in use
    const variants = new Map<number, string>()
    for (const s of subscriptions) {
      const { subscribeAddresses, txInfo, txReceipt } = s.params
      if (subscribeAddresses.size === 0) continue
      touched ??= addressesOf(view.block.txs[i]!, view.block.receipts[i]!)
      if (!intersects(subscribeAddresses, touched)) continue
      const key = (txInfo ? 1 : 0) | (txReceipt ? 2 : 0)
      let json = variants.get(key)
      if (json === undefined) {
        const transaction: Record<string, unknown> = { txHash: pending.tx(i).hash }
        if (txInfo) transaction.txData = pending.tx(i)
        if (txReceipt) transaction.receipt = pending.receipt(i)
        json = JSON.stringify({ type: 'transaction', transaction })
        variants.set(key, json)
      }
      s.notify(json)
    }
  }
}

function addressesOf({ tx, sender }: TxRecord, receipt: ReceiptRecord): Set<string> {
  const out = new Set<string>([address(sender)])
  if (tx.to) out.add(address(tx.to.bytes))
  if (receipt.contractAddress) out.add(address(receipt.contractAddress))
  for (const log of receipt.logs) out.add(address(log.address))
  return out
}

function intersects(wanted: ReadonlySet<string>, touched: ReadonlySet<string>): boolean {
  for (const a of touched) if (wanted.has(a)) return true
  return false
}
