import { describe, expect, test } from 'vitest'
import { FilterRegistry } from './registry.js'
import { FILTER_IDLE_TIMEOUT_MS } from '../limits.js'
import { InvalidInputError, LimitExceededError } from '../errors.js'

function clock() {
  let t = 1_000
  return { now: () => t, advance: (ms: number) => (t += ms) }
}

describe('the in-memory filter registry', () => {
  test('gives each filter a 16-byte hex id', async () => {
    const registry = new FilterRegistry()
    const a = await registry.install({ kind: 'blocks' }, 1n, '')
    const b = await registry.install({ kind: 'blocks' }, 1n, '')
    expect(a).toMatch(/^0x[0-9a-f]{32}$/)
    expect(a).not.toBe(b)
  })

  test('moves a cursor forward only, answering each poll from where the last one stopped', async () => {
    const registry = new FilterRegistry()
    const id = await registry.install({ kind: 'logs', filter: {} }, 5n, '')
    expect((await registry.changes(id, 8n)).from).toBe(5n)
    // a poller whose head is behind the last one's gets an empty range and leaves the cursor where it was
    expect((await registry.changes(id, 7n)).from).toBe(8n)
    expect((await registry.changes(id, 9n)).from).toBe(8n)
  })

  test('hands accepted transaction hashes to pending-transaction filters once', async () => {
    const registry = new FilterRegistry()
    const txs = await registry.install({ kind: 'pendingTransactions' }, 0n, '')
    const blocks = await registry.install({ kind: 'blocks' }, 1n, '')
    registry.onPendingTransaction('0x02')
    expect((await registry.changes(txs, 0n)).hashes).toEqual(['0x02'])
    expect((await registry.changes(txs, 0n)).hashes).toEqual([])
    expect((await registry.changes(blocks, 1n)).hashes).toEqual([])
  })

  test('uninstalls once: true, then false', async () => {
    const registry = new FilterRegistry()
    const id = await registry.install({ kind: 'blocks' }, 1n, '')
    expect(await registry.uninstall(id)).toBe(true)
    expect(await registry.uninstall(id)).toBe(false)
    await expect(registry.changes(id, 1n)).rejects.toThrow('filter not found')
  })

  test('forgets a filter left unpolled past the idle timeout, and keeps one that is polled', async () => {
    const c = clock()
    const registry = new FilterRegistry({ now: c.now })
    const idle = await registry.install({ kind: 'blocks' }, 1n, '')
    const busy = await registry.install({ kind: 'blocks' }, 1n, '')
    c.advance(FILTER_IDLE_TIMEOUT_MS - 1)
    await registry.definition(busy)
    c.advance(2)
    await expect(registry.changes(idle, 1n)).rejects.toThrow(InvalidInputError)
    await expect(registry.changes(busy, 1n)).resolves.toBeDefined()
    expect(await registry.uninstall(idle)).toBe(false)
  })

  test('refuses a filter past the per-client limit with a -32005 error naming it', async () => {
    const registry = new FilterRegistry({ maxFilters: 2 })
    await registry.install({ kind: 'blocks' }, 1n, 'a')
    await registry.install({ kind: 'blocks' }, 1n, 'a')
    await registry.install({ kind: 'blocks' }, 1n, 'b')
    const attempt = registry.install({ kind: 'blocks' }, 1n, 'a')
    await expect(attempt).rejects.toThrow(LimitExceededError)
    await expect(registry.install({ kind: 'blocks' }, 1n, 'a')).rejects.toThrow(/too many filters/)
  })
})
