/**
 * The builder's view of the pool: executable transactions best price first, each sender's in nonce
 * order (a heap over the senders' next transactions, like geth's miner ordering by effective tip).
 */
import type { UserTxRecord as TxRecord } from '../../domain/types.js'
import { effectiveTip, type PoolEntry } from './entry.js'

type Head = { tip: bigint; seq: number; list: readonly PoolEntry[]; at: number }

/** `runs`: per sender, the consecutive executable transactions from its state nonce (a snapshot). */
export function* priceOrdered(runs: readonly (readonly PoolEntry[])[], baseFee: bigint): Generator<TxRecord> {
  const heap: Head[] = []
  const better = (a: Head, b: Head) => (a.tip !== b.tip ? a.tip > b.tip : a.seq < b.seq)
  const push = (h: Head) => {
    heap.push(h)
    for (let i = heap.length - 1; i > 0; ) {
      const p = (i - 1) >> 1
      if (!better(heap[i], heap[p])) break
      ;[heap[i], heap[p]] = [heap[p], heap[i]]
      i = p
    }
  }
  const pop = (): Head => {
    const top = heap[0]
    const last = heap.pop()!
    if (heap.length > 0) {
      heap[0] = last
      for (let i = 0; ; ) {
        const l = 2 * i + 1
        const r = l + 1
        let m = i
        if (l < heap.length && better(heap[l], heap[m])) m = l
        if (r < heap.length && better(heap[r], heap[m])) m = r
        if (m === i) break
        ;[heap[i], heap[m]] = [heap[m], heap[i]]
        i = m
      }
    }
    return top
  }
  const headOf = (list: readonly PoolEntry[], at: number): Head => ({
    tip: effectiveTip(list[at], baseFee),
    seq: list[at].seq,
    list,
    at,
  })
  for (const run of runs) if (run.length > 0) push(headOf(run, 0))
  while (heap.length > 0) {
    const head = pop()
    yield head.list[head.at].record
    if (head.at + 1 < head.list.length) push(headOf(head.list, head.at + 1))
  }
}
