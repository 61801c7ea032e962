import { type Block, type BlockHeader, createBlock, createBlockHeader } from '@ethereumjs/block'
import { expect, test } from 'vitest'
import { callCommon, createChainCommon } from '../chain-common.js'
import { blockContext, overrideBlobBaseFee } from './block-context.js'

const prague = createChainCommon({ chainId: 901, gasLimit: 30_000_000n, baseFee: 7n })
const cancun = createChainCommon({ chainId: 901, gasLimit: 30_000_000n, baseFee: 7n, lastFork: 'cancun' })
const bytes = (length: number, fill: number) => new Uint8Array(length).fill(fill)

/** A header of every field the EVM reads, each of its own value; the optional ones `common`'s forks have. */
function headerOn(common: typeof prague): BlockHeader {
  const cancunFields = { blobGasUsed: 131_072n, excessBlobGas: 40_000_000n, parentBeaconBlockRoot: bytes(32, 7) }
  const pragueFields = common.isActivatedEIP(7685) ? { requestsHash: bytes(32, 8) } : {}
  return createBlockHeader(
    {
      parentHash: bytes(32, 1),
      coinbase: bytes(20, 2),
      stateRoot: bytes(32, 3),
      number: 1234n,
      gasLimit: 60_000_000n,
      gasUsed: 21_000n,
      timestamp: 1_700_000_000n,
      extraData: bytes(9, 4),
      mixHash: bytes(32, 5),
      baseFeePerGas: 1_000_000_007n,
      withdrawalsRoot: bytes(32, 6),
      ...cancunFields,
      ...pragueFields,
    },
    { common },
  )
}

/** The context as it was built before: the header's JSON read back under the call's Common. */
function roundTrip(header: BlockHeader, paysFees: boolean, common: typeof prague): Block {
  const baseFeePerGas = paysFees ? header.baseFeePerGas : 0n
  return createBlock(
    { header: { ...header.toJSON(), baseFeePerGas } as never },
    { common: callCommon(common), skipConsensusFormatValidation: true },
  )
}

/** What a call sees of a block, and what runTx's errors name (its hash). */
function seen(block: Block) {
  const { header } = block
  return {
    raw: header.raw(),
    hash: header.hash(),
    blockHash: block.hash(),
    json: header.toJSON(),
    prevRandao: header.prevRandao,
    coinbase: header.coinbase.bytes,
    blobBaseFee: header.getBlobGasPrice(),
    fork: block.common.hardfork(),
    headerFork: header.common.hardfork(),
    withdrawals: block.withdrawals,
    frozen: [Object.isFrozen(header), Object.isFrozen(block)],
  }
}

test('a call’s block context holds the same fields, hash, fork and blob base fee as the round trip through JSON', () => {
  for (const common of [prague, cancun])
    for (const paysFees of [true, false]) {
      const header = headerOn(common)
      const context = blockContext(header, paysFees, common)
      expect(seen(context)).toEqual(seen(roundTrip(header, paysFees, common)))
      expect(context.header.baseFeePerGas).toBe(paysFees ? 1_000_000_007n : 0n)
      expect(blockContext(header, paysFees, common)).toBe(context)
    }
})

test('a header without a field the call’s fork has gets that fork’s default, as the round trip gives it', () => {
  const header = headerOn(cancun)
  const context = blockContext(header, true, prague)
  expect(seen(context)).toEqual(seen(roundTrip(header, true, prague)))
  expect(context.header.requestsHash).toBeDefined()
})

test('a header with a field the call’s fork has not is refused, as the round trip refuses it', () => {
  const header = headerOn(prague)
  expect(() => roundTrip(header, true, cancun)).toThrow(/requestsHash/)
  expect(() => blockContext(header, true, cancun)).toThrow(/requestsHash/)
})

test('an overridden blob base fee is what the context’s header answers, on an unfrozen header', () => {
  const header = headerOn(prague)
  overrideBlobBaseFee(header, 12_345n)
  const context = blockContext(header, false, prague)
  expect(context.header.getBlobGasPrice()).toBe(12_345n)
  expect(context.header.raw()).toEqual(roundTrip(header, false, prague).header.raw())
})
