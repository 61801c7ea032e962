/**
 * The block a call runs in: the header's, with a zero base fee when the call pays no fees (geth's NoBaseFee
 * for calls). Built once per header and fee mode, for runTx's path (run.ts) and the plain-call one
 * (fast-call.ts) alike.
 *
 * Built from the header's own field values, not through `header.toJSON()` and `createBlock` (hex out and back
 * in, and a header's validation: ~0.3 ms, paid by the first call at every new root, on /flashblocks five times
 * a second): that round trip gives the same values whenever the header holds exactly the optional fields the
 * call's Common has the EIPs of. A header that does not (an imported chain's block under another fork's
 * rules) still takes the round trip, which fills in that fork's defaults or refuses as before.
 */
import { Block, type BlockHeader, createBlock } from '@ethereumjs/block'
import type { VM } from '@ethereumjs/vm'
import { callCommon } from '../chain-common.js'
import { extendsBlockHeader, headerHashFunction } from '../patches/fields.js'

/** BLOBBASEFEE of an overridden header (block-overrides.ts): no header field holds it (it derives from excessBlobGas). */
const blobBaseFees = new WeakMap<BlockHeader, bigint>()

export function overrideBlobBaseFee(header: BlockHeader, fee: bigint): void {
  blobBaseFees.set(header, fee)
}

const blockContexts = new WeakMap<BlockHeader, { paying?: Block; free?: Block }>()

export function blockContext(header: BlockHeader, paysFees: boolean, common: VM['common']): Block {
  let contexts = blockContexts.get(header)
  if (!contexts) blockContexts.set(header, (contexts = {}))
  const key = paysFees ? 'paying' : 'free'
  const blobBaseFee = blobBaseFees.get(header)
  const block = (contexts[key] ??= contextOf(header, paysFees, callCommon(common), blobBaseFee === undefined))
  // a call's blobBaseFee override: no header field holds it, BLOBBASEFEE and blob fees read this method
  if (blobBaseFee !== undefined) block.header.getBlobGasPrice = () => blobBaseFee
  return block
}

function contextOf(header: BlockHeader, paysFees: boolean, common: BlockHeader['common'], freeze: boolean): Block {
  const baseFeePerGas = paysFees ? header.baseFeePerGas : 0n
  if (!sameFields(header, common))
    return createBlock(
      { header: { ...header.toJSON(), baseFeePerGas } as never },
      { common, skipConsensusFormatValidation: true, freeze },
    )
  const made = new CallHeader(header, common.copy(), baseFeePerGas)
  if (freeze) Object.freeze(made)
  return new Block(made as unknown as BlockHeader, [], [], undefined, { freeze })
}

/**
 * A BlockHeader (its prototype's methods: hash, getBlobGasPrice, prevRandao...) with what its constructor
 * would set from the round trip's values; createBlock copies the Common too. A class, so every context has one
 * shape with fast properties (Object.assign of this many fields onto an Object.create made a dictionary).
 */
class CallHeader {
  readonly cache = { hash: undefined }
  readonly keccakFunction: (message: Uint8Array) => Uint8Array
  readonly parentHash: Uint8Array
  readonly uncleHash: Uint8Array
  readonly coinbase: BlockHeader['coinbase']
  readonly stateRoot: Uint8Array
  readonly transactionsTrie: Uint8Array
  readonly receiptTrie: Uint8Array
  readonly logsBloom: Uint8Array
  readonly difficulty: bigint
  readonly number: bigint
  readonly gasLimit: bigint
  readonly gasUsed: bigint
  readonly timestamp: bigint
  readonly extraData: Uint8Array
  readonly mixHash: Uint8Array
  readonly nonce: Uint8Array
  readonly withdrawalsRoot: Uint8Array | undefined
  readonly blobGasUsed: bigint | undefined
  readonly excessBlobGas: bigint | undefined
  readonly parentBeaconBlockRoot: Uint8Array | undefined
  readonly requestsHash: Uint8Array | undefined
  readonly blockAccessListHash: Uint8Array | undefined
  readonly slotNumber: bigint | undefined

  constructor(
    header: BlockHeader,
    readonly common: BlockHeader['common'],
    readonly baseFeePerGas: bigint | undefined,
  ) {
    this.keccakFunction = headerHashFunction(header)
    this.parentHash = header.parentHash
    this.uncleHash = header.uncleHash
    this.coinbase = header.coinbase
    this.stateRoot = header.stateRoot
    this.transactionsTrie = header.transactionsTrie
    this.receiptTrie = header.receiptTrie
    this.logsBloom = header.logsBloom
    this.difficulty = header.difficulty
    this.number = header.number
    this.gasLimit = header.gasLimit
    this.gasUsed = header.gasUsed
    this.timestamp = header.timestamp
    this.extraData = header.extraData
    this.mixHash = header.mixHash
    this.nonce = header.nonce
    this.withdrawalsRoot = header.withdrawalsRoot
    this.blobGasUsed = header.blobGasUsed
    this.excessBlobGas = header.excessBlobGas
    this.parentBeaconBlockRoot = header.parentBeaconBlockRoot
    this.requestsHash = header.requestsHash
    this.blockAccessListHash = header.blockAccessListHash
    this.slotNumber = header.slotNumber
  }
}
extendsBlockHeader(CallHeader)

/** The optional header fields and the EIP that brings each. */
const OPTIONAL_FIELDS = [
  ['baseFeePerGas', 1559],
  ['withdrawalsRoot', 4895],
  ['blobGasUsed', 4844],
  ['excessBlobGas', 4844],
  ['parentBeaconBlockRoot', 4788],
  ['requestsHash', 7685],
  ['blockAccessListHash', 7928],
  ['slotNumber', 7843],
] as const

/**
 * Whether the round trip would give the header's own values: it writes out a field when the header's Common
 * has its EIP (withdrawalsRoot: when set) and reads it back under `common`, which fills in a default for a
 * field it has the EIP of and refuses one it has not. Before London the free context's zero base fee is refused.
 * The hash (runTx's error messages name it) is the header's own hash function's when both Commons name one.
 */
function sameFields(header: BlockHeader, common: BlockHeader['common']): boolean {
  if (header.common.customCrypto.keccak256 !== common.customCrypto.keccak256) return false
  for (const [field, eip] of OPTIONAL_FIELDS) {
    const active = common.isActivatedEIP(eip)
    if (active !== header.common.isActivatedEIP(eip) || active !== (header[field] !== undefined)) return false
  }
  return true
}
