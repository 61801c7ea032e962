/**
 * `--network mainnet|testnet` bring X Layer's chain parameters (okx/xlayer-reth b85080e, crates/chainspec:
 * res/genesis/xlayer-{mainnet,testnet}.json and src/lib.rs): the genesis gas limit, base fee and extraData,
 * the chain config's EIP-1559 parameters (denominator 100 000 000, elasticity 1) in every later block's
 * extraData, Jovian's activation in eth_config, and the gasless whitelist predeploy at the chain's address
 * with their storage layout (okx/optimism 3349a7c snapshots/storageLayout/GaslessWhitelist.json).
 */
import { afterEach, describe, expect, test } from 'vitest'
import { createPublicClient, getAddress, http, type PublicClient } from 'viem'
import type { Chain } from '../../src/chain/chain.js'
import type { Network } from '../../src/config.js'
import { parseArgs } from '../../src/flags.js'
import { predeployAbis } from '../../src/opstack/predeploys.js'
import type { RunningService } from '../../src/service.js'
import { devAccount } from '../support/dev-keys.js'
import { startFrozenService } from '../support/harness.js'
import { rpc } from '../support/rpc.js'

const WHITELIST = '0x19787404b0c70021b4752028f7e3a92313885B27'

const PRESETS: Record<Network, { chainId: number; gasLimit: bigint; baseFee: bigint; jovian: number }> = {
  mainnet: { chainId: 196, gasLimit: 0x2faf080n, baseFee: 0x5fc01c5n, jovian: 1_764_691_201 },
  testnet: { chainId: 1952, gasLimit: 0x1c9c380n, baseFee: 0x5f5e100n, jovian: 1_764_327_600 },
}

let service: RunningService | undefined
afterEach(async () => {
  await service?.close()
  service = undefined
})

describe.each(['mainnet', 'testnet'] as const)('--network %s', (network) => {
  test("starts from X Layer's genesis parameters and seals blocks carrying its EIP-1559 parameters", async () => {
    const preset = PRESETS[network]
    service = await startFrozenService({ network })
    const client = createPublicClient({ transport: http(service.url) }) as PublicClient
    expect(await client.getChainId()).toBe(preset.chainId)
    const genesis = await client.getBlock({ blockNumber: 0n })
    expect(genesis).toMatchObject({ extraData: '0x00000000fa00000006', gasLimit: preset.gasLimit })
    expect(genesis.baseFeePerGas).toBe(preset.baseFee)

    const block = await (service.chain as Chain).mine()
    const sealed = await client.getBlock({ blockNumber: block.number })
    // Jovian: version 1, denominator 100 000 000, elasticity 1, minBaseFee 0
    expect(sealed.extraData).toBe('0x0105f5e100000000010000000000000000')
    // the first block follows the genesis' (250, 6): under its target, the base fee falls by a 250th at most
    expect(sealed.baseFeePerGas).toBeLessThan(preset.baseFee)
    expect(sealed.baseFeePerGas).toBeGreaterThanOrEqual(preset.baseFee - preset.baseFee / 250n)

    const config = (await rpc(service.url, 'eth_config', [])).result as { current: { activationTime: number } }
    expect(config.current.activationTime).toBe(preset.jovian)
  })
})

test('the gasless whitelist predeploy answers with the layout and rules of xlayer-reth', async () => {
  const { gaslessTargets } = parseArgs(['--gasless-targets', '0x00000000000000000000000000000000000000aa:50000'])
  service = await startFrozenService({ gaslessTargets })
  const client = createPublicClient({ transport: http(service.url) }) as PublicClient
  const read = (functionName: string, args: unknown[] = []) =>
    client.readContract({ address: WHITELIST, abi: predeployAbis.GaslessWhitelist, functionName, args })
  expect(await read('owner')).toBe(getAddress(devAccount.address))
  expect(await read('gaslessEnabled')).toBe(true)
  expect(await read('maxGasLimit')).toBe(16_777_216n)
  expect(await read('fullyGaslessTargets', ['0x00000000000000000000000000000000000000aa'])).toEqual([true, 50_000n])
  expect(await read('getGaslessAllowance', ['0x00000000000000000000000000000000000000aa', '0x12345678'])).toEqual([
    true,
    50_000n,
  ])
  // a call without a selector is never gasless; nor is a target off the list
  expect(await read('getGaslessAllowance', ['0x00000000000000000000000000000000000000aa', '0x'])).toEqual([false, 0n])
  expect(await read('getGaslessAllowance', ['0x00000000000000000000000000000000000000bb', '0x12345678'])).toEqual([
    false,
    0n,
  ])
  // slot 4: maxGasLimit (bytes 0-7) and gaslessEnabled (byte 8), as their storage layout snapshot packs them
  expect(await client.getStorageAt({ address: WHITELIST, slot: '0x4' })).toBe(
    `0x${(16_777_216n | (1n << 64n)).toString(16).padStart(64, '0')}`,
  )
})
