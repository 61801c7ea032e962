import { describe, expect, test } from 'vitest'
import { FilterRegistry } from './registry.js'
import { FILTER_IDLE_TIMEOUT_MS } from '../limits.js'
import { InvalidInputError, LimitExceededError } from '../errors.js'

function clock() {
  let t = 1_000
  return { now: () => t, advance: (ms: number) => (t += ms) }
}

describe('filter registry', () => {
  test('gives each filter a 16-byte hex id', () => {
    const registry = new FilterRegistry()
    const a = registry.install({ kind: 'blocks', hashes: [] })
    const b = registry.install({ kind: 'blocks', hashes: [] })
    expect(a).toMatch(/^0x[0-9a-f]{32}$/)
    expect(a).not.toBe(b)
  })

  test('hands block hashes announced since the last poll to block filters only', () => {
    const registry = new FilterRegistry()
    const blocks = registry.install({ kind: 'blocks', hashes: [] })
    const txs = registry.install({ kind: 'pendingTransactions', hashes: [] })
    registry.onNewBlock('0x01')
    registry.onPendingTransaction('0x02')
    const f = registry.poll(blocks)
    expect(f.kind === 'blocks' && registry.drain(f)).toEqual(['0x01'])
    expect(f.kind === 'blocks' && registry.drain(f)).toEqual([])
    const g = registry.poll(txs)
    expect(g.kind === 'pendingTransactions' && registry.drain(g)).toEqual(['0x02'])
  })

  test('uninstalls once: true, then false', () => {
    const registry = new FilterRegistry()
    const id = registry.install({ kind: 'blocks', hashes: [] })
    expect(registry.uninstall(id)).toBe(true)
    expect(registry.uninstall(id)).toBe(false)
    expect(() => registry.poll(id)).toThrow('filter not found')
  })

  test('forgets a filter left unpolled past the idle timeout, and keeps one that is polled', () => {
    const c = clock()
    const registry = new FilterRegistry({ now: c.now })
    const idle = registry.install({ kind: 'blocks', hashes: [] })
    const busy = registry.install({ kind: 'blocks', hashes: [] })
    c.advance(FILTER_IDLE_TIMEOUT_MS - 1)
    registry.poll(busy)
    c.advance(2)
    expect(() => registry.poll(idle)).toThrow(InvalidInputError)
    expect(() => registry.poll(busy)).not.toThrow()
    expect(registry.uninstall(idle)).toBe(false)
  })

  test('refuses a filter past the limit with a -32005 error naming it', () => {
    const registry = new FilterRegistry({ maxFilters: 2 })
    registry.install({ kind: 'blocks', hashes: [] })
    registry.install({ kind: 'blocks', hashes: [] })
    const attempt = () => registry.install({ kind: 'blocks', hashes: [] })
    expect(attempt).toThrow(LimitExceededError)
    expect(attempt).toThrow(/too many filters/)
  })
})
