/**
 * A call's block overrides (eth_call's and eth_estimateGas's fourth parameter, debug_traceCall's
 * `blockOverrides`) as geth's BlockOverrides.Apply and MakeHeader: the call runs under a header of its own
 * with the given fields, and so under the fork of the overridden number and time. BLOCKHASH keeps answering
 * from the real block, as geth's GetHashFn: zero from the block's own number on, whatever number the call
 * sees, except that debug_traceCall with `number` the block's plus one also answers the block's own hash
 * (geth #32175: a wallet simulating the next block must not see it is simulating).
 */
import { type BlockHeader, createBlockHeader } from '@ethereumjs/block'
import type { EVMMockBlockchainInterface } from '@ethereumjs/evm'
import { bytesToHex } from '@ethereumjs/util'
import type { BlockOverrideSpec } from '../../domain/block-overrides.js'
import { callCommon } from '../chain-common.js'
import { overrideBlobBaseFee } from './block-context.js'
import type { ExecutionEnv } from './run.js'

/** `env` with its header overridden; `method` decides BLOCKHASH at the block's own number (see above). */
export function withBlockOverrides(
  env: ExecutionEnv,
  o: BlockOverrideSpec | undefined,
  method: 'call' | 'traceCall',
): ExecutionEnv {
  if (!o) return env
  const real = env.header
  const header = overriddenHeader(real, o, env.vm.common)
  if (o.blobBaseFee !== undefined) overrideBlobBaseFee(header, o.blobBaseFee)
  if (o.number === undefined) return { ...env, header, overridden: {} }
  const ownHash = method === 'traceCall' && o.number === real.number + 1n
  const blockHashes = hashesBelow(env.vm.blockchain as never, ownHash ? real.number + 1n : real.number, real)
  return { ...env, header, overridden: { blockHashes } }
}

function overriddenHeader(real: BlockHeader, o: BlockOverrideSpec, common: ExecutionEnv['vm']['common']): BlockHeader {
  const fields = real.toJSON()
  const hex = (value: bigint | undefined, fallback: string | undefined) =>
    value === undefined ? fallback : `0x${value.toString(16)}`
  return createBlockHeader(
    {
      ...fields,
      number: hex(o.number, fields.number),
      timestamp: hex(o.time, fields.timestamp),
      gasLimit: hex(o.gasLimit, fields.gasLimit),
      coinbase: o.feeRecipient ? bytesToHex(o.feeRecipient) : fields.coinbase,
      mixHash: o.prevRandao ? bytesToHex(o.prevRandao) : fields.mixHash,
      // a block before London has no base fee to override (BASEFEE is not an opcode there)
      baseFeePerGas: fields.baseFeePerGas === undefined ? undefined : hex(o.baseFeePerGas, fields.baseFeePerGas),
      // after the merge DIFFICULTY reads prevRandao and a header must have none: geth's no-op
      difficulty: real.difficulty === 0n ? fields.difficulty : hex(o.difficulty, fields.difficulty),
    } as never,
    { common: callCommon(common), skipConsensusFormatValidation: true },
  )
}

const ZERO_HASH = { hash: () => new Uint8Array(32) }

/**
 * BLOCKHASH of the chain's blocks below `limit`, zero from there on (the EVM itself answers zero for the
 * call's own number and beyond, and past 256 blocks). Block `real.number` below the limit is the real
 * block, which may be the pending one (in no store): its header's hash.
 */
function hashesBelow(chain: EVMMockBlockchainInterface, limit: bigint, real: BlockHeader): EVMMockBlockchainInterface {
  const hashes: EVMMockBlockchainInterface = {
    getBlock: async (n: number) => {
      if (BigInt(n) >= limit) return ZERO_HASH
      if (BigInt(n) === real.number) return { hash: () => real.hash() }
      return chain.getBlock(n)
    },
    putBlock: async () => {},
    shallowCopy: () => hashes,
  } as EVMMockBlockchainInterface
  return hashes
}
