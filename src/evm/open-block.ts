/**
 * Where a block being built starts: its number, gas limit, base fee and the header fields every flashblock of
 * it shares. The sequencer opens the child of a local parent; a follower opens the block a feed's `base` names.
 */
import { type Block, createBlock, type HeaderData } from '@ethereumjs/block'
import type { Common } from '@ethereumjs/common'
import type { BlockRecord, FlashblockBase } from '../domain/types.js'
import { nextBaseFee } from '../opstack/base-fee.js'
import { callCommon } from './chain-common.js'

export interface BlockParams {
  timestamp: bigint
  coinbase: Uint8Array
  prevRandao: Uint8Array
  payloadId: Uint8Array
  /** Charge OP Stack fees beyond gas, with parameters read from L1Block at the block's start. */
  opFees?: boolean
  /** The dev node's overrides (evm_setBlockGasLimit, anvil_setNextBlockBaseFeePerGas); default: from the parent. */
  gasLimit?: bigint
  baseFee?: bigint
  /** The header's extraData (an OP block's EIP-1559 parameters, eip1559-params.ts); absent = empty. */
  extraData?: Uint8Array
  /** Zero-priced whitelisted transactions run gasless, within this much gas a block (0: no budget); absent = none do. */
  gaslessBudget?: bigint
}

/** A block a follower re-executes: its header fields come from the feed's `base`, not from a local parent. */
export interface FollowedBlock {
  base: FlashblockBase
  payloadId: Uint8Array
  /** The followed chain charges OP Stack fees (read from its L1Block). */
  opFees?: boolean
  /** The followed chain runs X Layer's gasless transactions (their budget is the sequencer's business). */
  gasless?: boolean
}

export interface OpenedBlock {
  readonly number: bigint
  readonly gasLimit: bigint
  readonly baseFee: bigint
  readonly payloadId: Uint8Array
  readonly base: FlashblockBase
  readonly headerData: HeaderData
  /** The block context transactions execute in (header without roots). */
  readonly execBlock: Block
  readonly opFees: boolean
  /** undefined: no gasless transactions; 0n: gasless without a budget. */
  readonly gaslessBudget: bigint | undefined
}

export function openFollowedBlock({ base, payloadId, opFees, gasless }: FollowedBlock, common: Common): OpenedBlock {
  const headerData: HeaderData = {
    parentHash: base.parentHash,
    number: base.blockNumber,
    gasLimit: base.gasLimit,
    timestamp: base.timestamp,
    coinbase: base.feeRecipient,
    mixHash: base.prevRandao,
    baseFeePerGas: base.baseFeePerGas,
    extraData: base.extraData,
    // no blobs on the chains we follow (OP Stack: always 0)
    excessBlobGas: 0n,
    blobGasUsed: 0n,
    parentBeaconBlockRoot: base.parentBeaconBlockRoot,
  }
  return {
    number: base.blockNumber,
    gasLimit: base.gasLimit,
    baseFee: base.baseFeePerGas,
    payloadId,
    base,
    headerData,
    execBlock: execBlockOf(headerData, common),
    opFees: opFees ?? false,
    gaslessBudget: gasless ? 0n : undefined,
  }
}

export function openLocalBlock(parent: BlockRecord, params: BlockParams | undefined, common: Common): OpenedBlock {
  if (!params) throw new Error('FlashBuilder: block params are required for a locally built block')
  const ph = parent.header
  const number = ph.number + 1n
  const baseFee = params.baseFee ?? nextBaseFee(ph)
  const gasLimit = params.gasLimit ?? ph.gasLimit
  const headerData: HeaderData = {
    parentHash: parent.hash,
    number,
    gasLimit,
    timestamp: params.timestamp,
    coinbase: params.coinbase,
    mixHash: params.prevRandao,
    baseFeePerGas: baseFee,
    extraData: params.extraData,
    // OP chains carry no blobs: excessBlobGas stays 0 and blobGasUsed holds the DA footprint (Jovian)
    excessBlobGas: 0n,
    blobGasUsed: 0n,
    // no beacon chain behind this dev chain; the EIP-4788/2935 system contracts are not in genesis,
    // so their system calls (which BlockBuilder/runBlock make) are no-ops and are skipped here
    parentBeaconBlockRoot: new Uint8Array(32),
  }
  const execBlock = execBlockOf(headerData, common)
  const base: FlashblockBase = {
    parentBeaconBlockRoot: new Uint8Array(32),
    parentHash: parent.hash,
    feeRecipient: params.coinbase,
    prevRandao: params.prevRandao,
    blockNumber: number,
    gasLimit,
    timestamp: params.timestamp,
    extraData: execBlock.header.extraData,
    baseFeePerGas: baseFee,
  }
  return {
    number,
    gasLimit,
    baseFee,
    payloadId: params.payloadId,
    base,
    headerData,
    execBlock,
    opFees: params.opFees ?? false,
    gaslessBudget: params.gaslessBudget,
  }
}

/**
 * The block transactions run in. On callCommon, whose params are merged already: a header made on the VM's
 * Common merges the block params into its copy again: a cache rebuild and ~70 KB of garbage a block.
 * runTx refuses a block whose Common is at another fork than the VM's, so a shared Common made before the
 * VM's moved (an imported chain's start-up) is not used.
 */
function execBlockOf(headerData: HeaderData, common: Common): Block {
  const merged = callCommon(common)
  return createBlock({ header: headerData }, { common: merged.hardfork() === common.hardfork() ? merged : common })
}
