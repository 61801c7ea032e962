import { afterAll, beforeAll, expect, test } from 'vitest'
import { build, comparable, scenario } from '../../../test/support/frame-blocks.js'
import { plain } from '../../../test/support/frame-programs.js'
import type { Chain } from '../../chain/chain.js'
import { createChain } from '../../chain/create-chain.js'
import { defaultConfig } from '../../config.js'
import { interpreterStats } from '../interpreter/stats.js'
import { bytesToHex } from '@ethereumjs/util'

/**
 * The same blocks built twice, on a chain whose sequencer runs its transactions' and deposits' outermost frames
 * on the interpreter (patchBlockEvm) and on one that runs every frame on @ethereumjs: every flashblock, block
 * hash (over the state root, receipts root, logs bloom and gas used) and receipt must be the same. The blocks:
 * test/support/frame-blocks.ts.
 */
const GENESIS_TIME = 1_800_000_000n

/** Two chains alike but for where their blocks' frames run. */
let ours: Chain
let reference: Chain
beforeAll(async () => {
  const make = async (evmInterpreter: boolean) => {
    const chain = await createChain({
      ...defaultConfig({ quiet: true }),
      genesisTimestamp: GENESIS_TIME,
      evmInterpreter,
    })
    // every block two seconds after its parent, whatever the wall clock: both chains' blocks alike
    chain.nextBlock.clock.setInterval(2n)
    return chain
  }
  ours = await make(true)
  reference = await make(false)
})
afterAll(async () => {
  await ours?.stop()
  await reference?.stop()
})

test('blocks built with the outermost frames on the interpreter are the blocks @ethereumjs alone builds', async () => {
  const ran = interpreterStats.built
  const handedBack = new Map(interpreterStats.buildFallbacks)
  const built = await build(ours, scenario(ours))
  const interpreted = interpreterStats.built - ran
  const expected = await build(reference, scenario(reference))
  expect(interpreterStats.built - ran).toBe(interpreted)

  for (const [i, block] of built.blocks.entries()) {
    const other = expected.blocks[i]
    expect(block.txs.length, `block ${block.number}`).toBe(other.txs.length)
    expect(plain(block.receipts), `block ${block.number}'s receipts`).toEqual(plain(other.receipts))
    expect(bytesToHex(block.header.stateRoot), `block ${block.number}'s state root`).toBe(
      bytesToHex(other.header.stateRoot),
    )
    expect(bytesToHex(block.hash), `block ${block.number}'s hash`).toBe(bytesToHex(other.hash))
  }
  expect(built.flashblocks.map(comparable)).toEqual(expected.flashblocks.map(comparable))

  // what the scenario holds: every transaction and deposit included, and each kind of outcome among them
  const receipts = built.blocks.flatMap((b) => b.receipts)
  expect(built.blocks.map((b) => b.txs.length)).toEqual([9, 17, 9, 4, 1])
  expect(receipts.filter((r) => r.status === 0).length).toBeGreaterThanOrEqual(6)
  expect(receipts.some((r) => r.logs.length > 0 && r.depositNonce !== undefined)).toBe(true)
  // the frames: the five L1-info deposits, two user deposits and the calls of blocks 2-4 but those handed back
  expect(interpreted).toBeGreaterThanOrEqual(5 + 2 + 20)
  const more = (reason: string) => (interpreterStats.buildFallbacks.get(reason) ?? 0) - (handedBack.get(reason) ?? 0)
  expect(more('call with value')).toBe(1)
  expect(more('CREATE')).toBe(1)
  expect(more('warm set beyond the transaction’s (access list, authorizations)')).toBe(1)
  expect(more('traced (EVM event listeners)')).toBe(0)
})
