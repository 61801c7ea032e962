import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { conformanceCases } from './emit-conformance.js'
import { loadDocument } from './load-document.js'

const loaded = await loadDocument(join(import.meta.dirname, '..', 'openrpc'))
const cases = conformanceCases(loaded)

describe('conformance cases from the document', () => {
  test('every example pairing becomes exactly one case with a unique id', () => {
    const examples = loaded.methods.reduce((sum, method) => sum + method.examples.length, 0)
    expect(cases).toHaveLength(examples)
    expect(new Set(cases.map((c) => c.id)).size).toBe(examples)
  })

  test('only reproducible examples carry an exact expected result', () => {
    const chainId = cases.find((c) => c.method === 'eth_chainId')!
    expect(chainId.expected).toBe('0xc4')
    const latestBalance = cases.find((c) => c.id === 'eth_getBalance: latest')!
    expect('expected' in latestBalance).toBe(false)
  })

  test('sends run after every read, so reads see the node as it was found; dev-node methods after them, resets last', () => {
    const firstSend = cases.findIndex((c) => c.method.startsWith('eth_send'))
    const firstDev = cases.findIndex((c) => /^(anvil|evm|hardhat)_/.test(c.method))
    expect(firstDev).toBeGreaterThan(firstSend)
    expect(cases.slice(firstSend, firstDev).every((c) => c.method.startsWith('eth_send'))).toBe(true)
    expect(cases.slice(-2).map((c) => c.method)).toEqual(['anvil_reset', 'hardhat_reset'])
  })

  test('an example on a server-side id gets the setup call that creates one', () => {
    const unsubscribe = cases.find((c) => c.method === 'eth_unsubscribe')!
    expect(unsubscribe.websocket).toBe(true)
    expect(unsubscribe.setup).toEqual({ method: 'eth_subscribe', params: ['newHeads'] })
  })

  test('examples taken on /flashblocks run there; flashblocks-only methods too', () => {
    expect(cases.find((c) => c.id === 'eth_blockNumber: pending height on /flashblocks')!.endpoint).toBe('flashblocks')
    expect(cases.find((c) => c.method === 'op_supportedCapabilities')!.endpoint).toBe('flashblocks')
    expect(cases.find((c) => c.id === 'eth_blockNumber: canonical height')!.endpoint).toBe('general')
  })
})
