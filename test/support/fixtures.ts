/**
 * The compiled contract fixtures (test/fixtures/*.json, built by compile.mjs from the .sol sources), loaded
 * once with their types, and the event topics tests filter on.
 */
import type { Abi, Hex } from 'viem'
import blockEnvArtifact from '../fixtures/BlockEnv.json' with { type: 'json' }
import artifact from '../fixtures/TestToken.json' with { type: 'json' }

/** An ERC-20 with a constructor taking the initial supply (minted to the deployer), custom errors and reverts. */
export const testToken = artifact.TestToken as unknown as { abi: Abi; bytecode: Hex }

/** keccak256 of Transfer(address,address,uint256) and Approval(address,address,uint256). */
export const TRANSFER_TOPIC: Hex = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef'
export const APPROVAL_TOPIC: Hex = '0x8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b925'

/** Returns the block context a call sees (env()), BLOCKHASH (hashOf) and reverts before a block (notBefore). */
export const blockEnv = blockEnvArtifact.BlockEnv as unknown as { abi: Abi; bytecode: Hex }
