import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, test } from 'vitest'
import { signTx } from '../../../test/support/sign-tx.js'
import { defaultConfig } from '../../config.js'
import type { Chain } from '../chain.js'
import { createChain } from '../create-chain.js'

let chain: Chain | undefined
let dir: string | undefined
afterEach(async () => {
  await chain?.stop()
  if (dir) rmSync(dir, { recursive: true, force: true })
  chain = dir = undefined
})

test('a receipt polled before its transaction is mined is found once it is, and the same on every poll after', async () => {
  dir = mkdtempSync(join(tmpdir(), 'preconf-positions-'))
  chain = await createChain(defaultConfig({ quiet: true, dataDir: dir }))
  const c = chain
  const hash = await c.sendRawTransaction(await signTx(c, 0, { nonce: 0, value: 1n }))
  // a wallet's first polls come before the block: a position not found yet must not be remembered as missing
  expect(c.store.tx(hash)).toBeUndefined()
  const block = await c.mine()
  const polls = [1, 2, 3].map(() => c.store.tx(hash))
  for (const found of polls) {
    expect(found?.block.number).toBe(block.number)
    expect(found?.tx.hash).toEqual(hash)
    expect(found?.receipt.status).toBe(1)
  }
})
