/**
 * X Layer's chain parameters per network, as okx/xlayer-reth b85080e (2026-06-30) ships them:
 * crates/chainspec/res/genesis/xlayer-{mainnet,testnet}.json (genesis gas limit, base fee and extraData,
 * `config.optimism.eip1559Denominator`/`eip1559Elasticity`, also for Canyon), crates/chainspec/src/lib.rs
 * (every fork through Isthmus at genesis, Jovian at XLAYER_{MAINNET,TESTNET}_JOVIAN_TIMESTAMP) and the gasless
 * whitelist predeploy of okx/optimism 3349a7c rust/alloy-op-evm/src/block/xlayer_gasless_contract.rs.
 * The embedded chain starts from its own genesis block 0 at the current time (X Layer's genesis is block
 * 42 810 021 on mainnet, 12 241 700 on testnet, with 1.8 M accounts): the parameters are X Layer's, the
 * history is not.
 */
import { hexToBytes } from '@ethereumjs/util'

export type Network = 'mainnet' | 'testnet'

export interface NetworkPreset {
  chainId: number
  gasLimit: bigint
  genesisBaseFee: bigint
  /** Holocene's version 0: denominator 250, elasticity 6 (the genesis' own; blocks after carry the chain's). */
  genesisExtraData: Uint8Array
  /** The chain config's EIP-1559 parameters (London and Canyon), the ones the sequencer's blocks carry. */
  eip1559Denominator: bigint
  eip1559Elasticity: bigint
  /** Seconds: Jovian's activation; every earlier OP Stack fork is active at genesis. */
  jovianTime: bigint
}

const GENESIS_EXTRA_DATA = hexToBytes('0x00000000fa00000006')

export const NETWORKS: Readonly<Record<Network, NetworkPreset>> = {
  mainnet: {
    chainId: 196,
    gasLimit: 0x2faf080n,
    genesisBaseFee: 0x5fc01c5n,
    genesisExtraData: GENESIS_EXTRA_DATA,
    eip1559Denominator: 100_000_000n,
    eip1559Elasticity: 1n,
    // OP mainnet's Jovian, 2025-12-02 16:00:01 UTC
    jovianTime: 1_764_691_201n,
  },
  testnet: {
    chainId: 1952,
    gasLimit: 0x1c9c380n,
    genesisBaseFee: 0x5f5e100n,
    genesisExtraData: GENESIS_EXTRA_DATA,
    eip1559Denominator: 100_000_000n,
    eip1559Elasticity: 1n,
    jovianTime: 1_764_327_600n,
  },
}

/** The preset of a chain id (a follower's upstream), if X Layer's. */
export function presetOfChain(chainId: bigint): NetworkPreset | undefined {
  return Object.values(NETWORKS).find((p) => BigInt(p.chainId) === chainId)
}

/** The OP Stack forks of X Layer's schedule, in order, with their activation time (seconds; 0 = genesis). */
export function opForkSchedule(preset: NetworkPreset): { name: string; time: bigint }[] {
  return [
    ...['bedrock', 'regolith', 'canyon', 'ecotone', 'fjord', 'granite', 'holocene', 'isthmus'].map((name) => ({
      name,
      time: 0n,
    })),
    { name: 'jovian', time: preset.jovianTime },
  ]
}
