/**
 * The sequencer's state manager's caches (@ethereumjs's ordered maps keep every account ever touched) are
 * emptied once flushed past a bound, here 8 entries (the chain's liveStateCachedEntries) instead of
 * LIVE_STATE_CACHED_ENTRIES, and the chain goes on right: balances, nonces, every transfer mined.
 */
import { type Account, Address, randomBytes } from '@ethereumjs/util'
import { afterEach, expect, test } from 'vitest'
import type { Chain } from './chain.js'
import { createChain } from './create-chain.js'
import { signTx } from '../../test/support/sign-tx.js'
import { defaultConfig } from '../config.js'
import { cachedEntries } from '../evm/patches/fields.js'

let chain: Chain | undefined
afterEach(async () => {
  await chain?.stop()
  chain = undefined
})

test('the state caches are emptied past their bound and no write is lost', async () => {
  chain = await createChain({ ...defaultConfig({ quiet: true, blockTimeMs: 3_600_000 }), liveStateCachedEntries: 8 })
  const c = chain
  const recipients = Array.from({ length: 30 }, () => randomBytes(20))
  const peak: number[] = []
  for (let block = 0; block < 3; block++) {
    for (let i = 0; i < 10; i++) {
      const to = recipients[block * 10 + i]!
      await c.sendRawTransaction(await signTx(c, i % 2, { nonce: block * 5 + Math.floor(i / 2), to, value: 7n }))
    }
    const sealed = await c.sealNow()
    expect(sealed.receipts.filter((r) => r.status === 1).length).toBeGreaterThanOrEqual(10)
    peak.push(cachedEntries(c.vm.stateManager))
  }
  // 10 recipients, 2 senders and the fee vaults a block: kept, the cache would hold 30 and more by now
  expect(Math.max(...peak)).toBeLessThan(30)
  const state = c.vm.stateManager
  for (const to of recipients) expect((await state.getAccount(new Address(to)))?.balance).toBe(7n)
  expect(((await state.getAccount(new Address(c.accounts[0]!.address))) as Account).nonce).toBe(15n)
})
