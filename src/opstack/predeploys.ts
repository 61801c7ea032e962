/**
 * The OP Stack predeploys of the dev chain's genesis: L1Block, GasPriceOracle and the four fee vaults, their
 * runtime code from contracts/predeploys.json (compiled from contracts/*.sol by contracts/compile.mjs) and
 * the storage they start with: L1Block holds the genesis L1 info (so fee views answer before block 1), the
 * oracle has Ecotone..Jovian switched on, each vault names its recipient, X Layer's gasless whitelist
 * (at the address the chain id gives it) is enabled, owned by the first dev account and lists --gasless-targets.
 */
import { Address, createAccount, hexToBytes } from '@ethereumjs/util'
import type { MerkleStateManager } from '@ethereumjs/statemanager'
import artifact from './contracts/predeploys.json' with { type: 'json' }
import {
  BASE_FEE_VAULT,
  GAS_PRICE_ORACLE,
  L1_BLOCK,
  L1_FEE_VAULT,
  OPERATOR_FEE_VAULT,
  SEQUENCER_FEE_VAULT,
} from './addresses.js'
import type { L1Info } from './l1-origin.js'
import { uint256Bytes } from './source-hash.js'
import { keccak_256 as keccak256 } from '@noble/hashes/sha3.js'
import { gaslessContract } from './gasless.js'
import type { GaslessTarget } from '../config.js'
import { GASLESS_MAX_GAS_LIMIT } from '../limits.js'

export const predeployAbis = {
  L1Block: artifact.contracts.L1Block.abi,
  GasPriceOracle: artifact.contracts.GasPriceOracle.abi,
  FeeVault: artifact.contracts.FeeVault.abi,
  GaslessWhitelist: artifact.contracts.GaslessWhitelist.abi,
}

export interface PredeployAccount {
  address: Uint8Array
  code: Uint8Array
  /** Slot number → 32-byte value. */
  storage: Map<bigint, Uint8Array>
}

const toBig = (bytes: Uint8Array) => (bytes.length ? BigInt(`0x${Buffer.from(bytes).toString('hex')}`) : 0n)

/** L1Block's slots as the OP Stack lays them out (packed fields low-order first, as solc packs them). */
function l1BlockStorage(info: L1Info): Map<bigint, Uint8Array> {
  return new Map(
    [
      [0n, uint256Bytes(info.number | (info.timestamp << 64n))],
      [1n, uint256Bytes(info.l1BaseFee)],
      [2n, info.hash],
      [3n, uint256Bytes(info.sequenceNumber | (info.blobBaseFeeScalar << 64n) | (info.baseFeeScalar << 96n))],
      [4n, info.batcherHash],
      [7n, uint256Bytes(info.blobBaseFee)],
      [
        8n,
        uint256Bytes(info.operatorFeeConstant | (info.operatorFeeScalar << 64n) | (info.daFootprintGasScalar << 96n)),
      ],
    ].filter(([, v]) => toBig(v as Uint8Array) !== 0n) as [bigint, Uint8Array][],
  )
}

/** OpenZeppelin v5's ERC-7201 slot of Ownable's owner, where the whitelist keeps its owner. */
const OWNABLE_SLOT = 0x9016d09d72d40fdae2fd8ceac6b6234c7706214fd39c1cd1e609a0528c199300n

/** The slot of `mapping(address => …)` at `slot` for `key`, as solc lays mappings out. */
function mappingSlot(key: Uint8Array, slot: bigint): bigint {
  const preimage = new Uint8Array(64)
  preimage.set(key, 12)
  preimage.set(uint256Bytes(slot), 32)
  return toBig(keccak256(preimage))
}

/** The whitelist's storage: its targets in slot 0's mapping ({allowed, gasLimit} packed), cap and switch in slot 4. */
function gaslessWhitelist(chainId: bigint, owner: Uint8Array, targets: readonly GaslessTarget[]): PredeployAccount {
  const storage = new Map<bigint, Uint8Array>([
    [4n, uint256Bytes(GASLESS_MAX_GAS_LIMIT | (1n << 64n))],
    [OWNABLE_SLOT, uint256Bytes(toBig(owner))],
  ])
  for (const t of targets) storage.set(mappingSlot(t.address, 0n), uint256Bytes(1n | (t.gasLimit << 8n)))
  return {
    address: gaslessContract(chainId),
    code: hexToBytes(artifact.contracts.GaslessWhitelist.runtime as `0x${string}`),
    storage,
  }
}

/** The gasless whitelist's part of the dev genesis. */
export interface GaslessGenesis {
  chainId: bigint
  targets: readonly GaslessTarget[]
}

/** The predeploys with their code and initial storage; `vaultRecipient` receives what the vaults withdraw and owns the whitelist. */
export function predeployAlloc(info: L1Info, vaultRecipient: Uint8Array, gasless?: GaslessGenesis): PredeployAccount[] {
  const vault = (address: Uint8Array): PredeployAccount => ({
    address,
    code: hexToBytes(artifact.contracts.FeeVault.runtime as `0x${string}`),
    storage: new Map([[0n, uint256Bytes(toBig(vaultRecipient))]]),
  })
  return [
    {
      address: L1_BLOCK,
      code: hexToBytes(artifact.contracts.L1Block.runtime as `0x${string}`),
      storage: l1BlockStorage(info),
    },
    // isEcotone, isFjord, isIsthmus, isJovian: one byte each in slot 0
    {
      address: GAS_PRICE_ORACLE,
      code: hexToBytes(artifact.contracts.GasPriceOracle.runtime as `0x${string}`),
      storage: new Map([[0n, uint256Bytes(0x01010101n)]]),
    },
    vault(SEQUENCER_FEE_VAULT),
    vault(BASE_FEE_VAULT),
    vault(L1_FEE_VAULT),
    vault(OPERATOR_FEE_VAULT),
    ...(gasless ? [gaslessWhitelist(gasless.chainId, vaultRecipient, gasless.targets)] : []),
  ]
}

/** Writes the accounts into a state (genesis, before its root is taken). */
export async function installPredeploys(
  state: MerkleStateManager,
  accounts: readonly PredeployAccount[],
): Promise<void> {
  for (const a of accounts) {
    const address = new Address(a.address)
    await state.putAccount(address, (await state.getAccount(address)) ?? createAccount({}))
    await state.putCode(address, a.code)
    for (const [slot, value] of a.storage) {
      // the state manager stores values without leading zeros
      let start = 0
      while (start < value.length && value[start] === 0) start++
      await state.putStorage(address, uint256Bytes(slot), value.subarray(start))
    }
  }
}
