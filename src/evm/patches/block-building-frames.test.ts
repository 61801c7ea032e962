import { verifyMerkleProof } from '@ethereumjs/mpt'
import { bytesToHex } from '@ethereumjs/util'
import { type Hex, fromRlp, hexToBytes, keccak256, pad, toHex } from 'viem'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { type Built, build, CLEARED_SLOT, comparable, deployed, scenario } from '../../../test/support/frame-blocks.js'
import { plain } from '../../../test/support/frame-programs.js'
import type { Chain } from '../../chain/chain.js'
import { createChain } from '../../chain/create-chain.js'
import { defaultConfig } from '../../config.js'
import { sequencerStatus } from '../../feed/peer-status.js'
import { FeedPublisher } from '../../feed/publisher.js'
import { connectFilters } from '../../filters/service.js'
import { handlerContexts } from '../../handlers/context.js'
import { handlers } from '../../handlers/index.js'
import { interpreterStats } from '../interpreter/stats.js'

/**
 * The same blocks built twice, on a chain whose sequencer runs its transactions' and deposits' outermost frames
 * on the interpreter (patchBlockEvm) and on one that runs every frame on @ethereumjs: every flashblock, block
 * hash (over the state root, receipts root, logs bloom and gas used) and receipt must be the same. The blocks:
 * test/support/frame-blocks.ts.
 */
const GENESIS_TIME = 1_800_000_000n
const config = defaultConfig({ quiet: true })

/** Two chains alike but for where their blocks' frames run, and the blocks each built. */
let ours: Chain
let reference: Chain
let built: Built
let expected: Built
/** Frames the interpreter ran for `ours`, and the frames it handed back by reason (before the build). */
let interpreted: number
let handedBack: Map<string, number>
beforeAll(async () => {
  const make = async (evmInterpreter: boolean) => {
    const chain = await createChain({ ...config, genesisTimestamp: GENESIS_TIME, evmInterpreter })
    // every block two seconds after its parent, whatever the wall clock: both chains' blocks alike
    chain.nextBlock.clock.setInterval(2n)
    return chain
  }
  ours = await make(true)
  reference = await make(false)
  const ran = interpreterStats.built
  handedBack = new Map(interpreterStats.buildFallbacks)
  built = await build(ours, scenario(ours))
  interpreted = interpreterStats.built - ran
  expected = await build(reference, scenario(reference))
  // the reference ran nothing on the interpreter
  expect(interpreterStats.built - ran).toBe(interpreted)
})
afterAll(async () => {
  await ours?.stop()
  await reference?.stop()
})

test('blocks built with the outermost frames on the interpreter are the blocks @ethereumjs alone builds', () => {
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
  expect(built.blocks.map((b) => b.txs.length)).toEqual([9, 17, 9, 6, 1])
  expect(receipts.filter((r) => r.status === 0).length).toBeGreaterThanOrEqual(6)
  expect(receipts.some((r) => r.logs.length > 0 && r.depositNonce !== undefined)).toBe(true)
  // the frames: the five L1-info deposits, two user deposits and the calls of blocks 2-4 but those handed back
  expect(interpreted).toBeGreaterThanOrEqual(5 + 2 + 22)
  const more = (reason: string) => (interpreterStats.buildFallbacks.get(reason) ?? 0) - (handedBack.get(reason) ?? 0)
  expect(more('call with value')).toBe(1)
  expect(more('CREATE')).toBe(1)
  expect(more('warm set beyond the transaction’s (access list, authorizations)')).toBe(1)
  expect(more('traced (EVM event listeners)')).toBe(0)
})

/**
 * What both chains could get wrong alike, so the comparison above cannot see it: a slot nonzero in committed
 * state and set to zero must leave the state (storage-at-flush.ts writes it to the trie only at the flush).
 */
test('a slot cleared from committed state is gone: from the cleared block’s proofs and from a later block’s SSTORE', async () => {
  const kv = deployed(built.at, 'kv')
  const [, , cleared, later] = built.blocks
  const ctx = handlerContexts(
    ours,
    config,
    connectFilters(ours.events),
    sequencerStatus({ events: ours.events, mining: false, publisher: new FeedPublisher(), localPeerId: () => '' }),
  )('general', { ip: '127.0.0.1' })
  const at = toHex(cleared.number)
  const slot = toHex(CLEARED_SLOT)

  expect(await handlers.eth_getStorageAt([kv, slot, at], ctx)).toBe(pad('0x0'))
  const proof = await handlers.eth_getProof([kv, [slot], at], ctx)
  expect(keccak256(proof.accountProof[0]!)).toBe(bytesToHex(cleared.header.stateRoot))
  const account = await verifyMerkleProof(
    hexToBytes(kv),
    proof.accountProof.map((node) => hexToBytes(node)),
    { useKeyHashing: true },
  )
  const [, , storageRoot] = fromRlp(account!, 'hex') as Hex[]
  expect(storageRoot).toBe(proof.storageHash)
  const [{ value, proof: nodes }] = proof.storageProof
  expect(value).toBe('0x0')
  expect(keccak256(nodes[0]!)).toBe(proof.storageHash)
  // proved absent from the storage trie, not merely answered as zero
  const stored = await verifyMerkleProof(
    hexToBytes(pad(slot)),
    nodes.map((node) => hexToBytes(node)),
    { useKeyHashing: true },
  )
  expect(stored).toBeNull()

  // block 4 sets the cleared slot and a slot never set, alike: the same gas, a zero-to-nonzero write each
  const writes = later.txs.flatMap((t, i) => (t.tx.to?.toString() === kv.toLowerCase() ? [later.receipts[i]] : []))
  expect(writes).toHaveLength(2)
  expect(writes.map((r) => r.status)).toEqual([1, 1])
  expect(writes[0].gasUsed).toBe(writes[1].gasUsed)
})
