import { hexToBytes } from '@ethereumjs/util'
import { afterEach, describe, expect, test } from 'vitest'
import type { Chain } from '../chain/chain.js'
import { createChain } from '../chain/create-chain.js'
import { testToken } from '../../test/support/fixtures.js'
import { signTx } from '../../test/support/sign-tx.js'
import { feeHistory } from './fee-history.js'
import { nextBaseFee } from '../opstack/base-fee.js'
import { ORACLE_DEFAULT_TIP } from '../limits.js'
import { suggestTip } from './tip-oracle.js'
import { defaultConfig } from '../config.js'

const GWEI = 10n ** 9n
const tokenBytecode = hexToBytes(testToken.bytecode)
let chain: Chain | undefined

afterEach(async () => {
  await chain?.stop()
  chain = undefined
})

const byNumber = (c: Chain) => (n: bigint) => c.store.byNumber(n)

describe('the fee oracle', () => {
  test('suggests the 1 gwei default tip on an idle chain', async () => {
    chain = await createChain(defaultConfig({ quiet: true }))
    await chain.mine()
    expect(suggestTip(chain.store.latest(), byNumber(chain))).toBe(ORACLE_DEFAULT_TIP)
  })

  test('suggests the 60th percentile of the cheapest three tips of recent blocks', async () => {
    chain = await createChain(defaultConfig({ quiet: true }))
    const tips = [7n, 5n, 3n, 2n].map((t) => t * GWEI)
    for (const [i, tip] of tips.entries()) {
      await chain.sendRawTransaction(
        await signTx(chain, i, { nonce: 0, maxPriorityFeePerGas: tip, maxFeePerGas: 100n * GWEI }),
      )
    }
    await chain.mine()
    // samples: genesis (empty) contributes the default 1 gwei, block 1 its cheapest three: 2, 3, 5 gwei
    expect(suggestTip(chain.store.latest(), byNumber(chain))).toBe(2n * GWEI)
  })
})

describe('fee history', () => {
  test('weights rewards by the gas each transaction used and lists the next base fee', async () => {
    chain = await createChain(defaultConfig({ quiet: true }))
    const fee = { maxFeePerGas: 100n * GWEI }
    await chain.sendRawTransaction(await signTx(chain, 0, { nonce: 0, maxPriorityFeePerGas: 1n * GWEI, ...fee }))
    await chain.sendRawTransaction(await signTx(chain, 1, { nonce: 0, maxPriorityFeePerGas: 2n * GWEI, ...fee }))
    await chain.sendRawTransaction(
      await signTx(chain, 2, {
        nonce: 0,
        to: null,
        data: tokenBytecode,
        gas: 3_000_000n,
        maxPriorityFeePerGas: 3n * GWEI,
        ...fee,
      }),
    )
    const block = await chain.mine()
    expect(block.receipts.find((r) => r.contractAddress)!.gasUsed).toBeGreaterThan(42_000n)

    const history = feeHistory([chain.store.byNumber(0n)!, block], [0, 25, 50, 100])
    expect(history.oldestBlock).toBe(0n)
    expect(history.baseFeePerGas).toEqual([
      chain.store.byNumber(0n)!.header.baseFeePerGas,
      block.header.baseFeePerGas,
      nextBaseFee(block.header),
    ])
    expect(history.gasUsedRatio[0]).toBe(0)
    expect(history.gasUsedRatio[1]).toBeCloseTo(Number(block.header.gasUsed) / Number(block.header.gasLimit), 12)
    expect(history.reward![0]).toEqual([0n, 0n, 0n, 0n])
    // the L1-info deposit (tip 0) comes first; the deployment holds most of the gas, so the median of gas is
    // its tip, not the median transaction's
    expect(history.reward![1]).toEqual([0n, 1n * GWEI, 3n * GWEI, 3n * GWEI])
    expect(history.blobGasUsedRatio).toEqual([0, 0])
    expect(history.baseFeePerBlobGas).toHaveLength(3)
  })

  test('leaves rewards out when no percentiles are asked for', async () => {
    chain = await createChain(defaultConfig({ quiet: true }))
    const history = feeHistory([chain.store.latest()], [])
    expect(history.reward).toBeUndefined()
    expect(history.baseFeePerGas).toHaveLength(2)
  })
})
