import { bytesToHex } from '@ethereumjs/util'
import { afterEach, describe, expect, test } from 'vitest'
import type { Chain } from '../chain/chain.js'
import { createChain } from '../chain/create-chain.js'
import { signTx } from '../../test/support/sign-tx.js'
import { defaultConfig } from '../config.js'

let chain: Chain | undefined
afterEach(async () => {
  await chain?.stop()
  chain = undefined
})

describe('the block resolvers', () => {
  test('answer pending as latest on the general endpoint and as the newest flashblock on flashblocks', async () => {
    chain = await createChain(defaultConfig({ quiet: true }))
    const general = chain.resolverFor('general')
    const flash = chain.resolverFor('flashblocks')
    await chain.sealNow()
    // no pending block yet: both answer latest, never nothing
    expect((await flash.block('pending'))?.number).toBe(1n)
    expect(await flash.blockNumber('pending')).toBe(1n)
    const fb = await chain.buildNow()
    expect(bytesToHex((await flash.block('pending'))!.hash)).toBe(bytesToHex(fb.diff.blockHash))
    expect(await flash.blockNumber('pending')).toBe(2n)
    expect(await flash.blockNumber()).toBe(1n)
    expect((await general.block('pending'))?.number).toBe(1n)
    expect(await general.blockNumber('pending')).toBe(1n)
  })

  test('resolve tags, numbers and EIP-1898 objects', async () => {
    chain = await createChain(defaultConfig({ quiet: true }))
    const b1 = await chain.sealNow()
    const b2 = await chain.sealNow()
    const fb = await chain.buildNow()
    const general = chain.resolverFor('general')
    const flash = chain.resolverFor('flashblocks')
    expect((await general.block('earliest'))?.number).toBe(0n)
    for (const tag of ['latest', 'safe', 'finalized'] as const) expect((await general.block(tag))?.number).toBe(2n)
    expect(await general.block(1n)).toBe(b1)
    expect(await general.block({ blockNumber: 2n })).toBe(b2)
    expect((await general.block({ blockNumber: 'earliest' }))?.number).toBe(0n)
    expect(await general.block({ blockHash: b1.hash, requireCanonical: true })).toBe(b1)
    expect(await general.block(3n)).toBeUndefined()
    expect((await flash.block(3n))?.number).toBe(3n)
    expect(await flash.block(4n)).toBeUndefined()
    expect(await general.blockByHash(fb.diff.blockHash)).toBeUndefined()
    expect((await flash.blockByHash(fb.diff.blockHash))?.number).toBe(3n)
    expect((await flash.block({ blockHash: fb.diff.blockHash }))?.number).toBe(3n)
    expect(await flash.block({ blockHash: fb.diff.blockHash, requireCanonical: true })).toBeUndefined()
    expect(await general.block({ blockHash: new Uint8Array(32) })).toBeUndefined()
  })

  test('count preconfirmed and pooled transactions in the pending nonce', async () => {
    chain = await createChain(defaultConfig({ quiet: true }))
    const sender = chain.accounts[0].address
    await chain.sendRawTransaction(await signTx(chain, 0, { nonce: 0, value: 1n }))
    await chain.buildNow()
    const flash = chain.resolverFor('flashblocks')
    expect(await flash.pendingNonce(sender)).toBe(1n)
    await chain.sendRawTransaction(await signTx(chain, 0, { nonce: 1, value: 1n }))
    await chain.sendRawTransaction(await signTx(chain, 0, { nonce: 3, value: 1n })) // gap: does not count
    expect(await flash.pendingNonce(sender)).toBe(2n)
    expect(await chain.resolverFor('general').pendingNonce(sender)).toBe(2n)
    expect(await (await chain.resolverFor('general').state('latest'))!.nonce(sender)).toBe(0n)
  })
})
