/**
 * A sealed transaction read back from history with its sender stored beside it (a data directory's block, an
 * old block of the in-memory history): its hash is the keccak of its bytes and its sender is known, so the
 * @ethereumjs transaction is built only when a reader asks for it. Most reads of an old block want none or
 * one: eth_getLogs and eth_getBlockByNumber without transactions read hashes, a receipt reads its own
 * transaction (bench/old-block-read.ts: a block of 50 transfers read in 0.47 ms of CPU, 1.04 ms with all built).
 */
import type { Common } from '@ethereumjs/common'
import { RLP } from '@ethereumjs/rlp'
import {
  create1559FeeMarketTxFromBytesArray,
  createAccessList2930TxFromBytesArray,
  createEOACode7702TxFromBytesArray,
  createLegacyTxFromBytesArray,
  createTxFromRLP,
  type TxOptions,
  type TypedTransaction,
} from '@ethereumjs/tx'
import { bigIntToUnpaddedBytes } from '@ethereumjs/util'
import { decodeViews, type Item } from '../../domain/rlp-views.js'
import type { TxRecord } from '../../domain/types.js'
import { keccak256 } from '../../evm/crypto.js'
import { adoptCommon, callCommon } from '../../evm/chain-common.js'
import { setKnownSender } from '../../evm/patches/known-sender.js'

export class SealedTx implements TxRecord {
  readonly hash: Uint8Array
  #tx: TypedTransaction | undefined
  readonly #common: Common

  /** `raw`: a user transaction's EIP-2718 bytes as sealed (not a deposit); `sender`: its stored sender. */
  constructor(
    readonly raw: Uint8Array,
    readonly sender: Uint8Array,
    common: Common,
  ) {
    this.#common = common
    if (hashedAsStored(raw, common)) this.hash = keccak256(raw)
    else {
      // @ethereumjs hashes the encoding it would write, not the bytes received: build it to hash it
      this.#tx = this.decode()
      this.hash = this.#tx.hash()
    }
  }

  /** Built on first use, then kept: frozen, its hash and sender answered without recomputing them. */
  get tx(): TypedTransaction {
    this.#tx ??= this.decode()
    return this.#tx
  }

  private decode(): TypedTransaction {
    const tx = fromStored(this.raw, { common: callCommon(this.#common), freeze: false })
    const sender = this.sender
    setKnownSender(tx, sender)
    if (this.hash) tx.cache.hash = this.hash
    return adoptCommon(tx, this.#common)
  }
}

type FromFields = (values: Uint8Array[], opts: TxOptions) => TypedTransaction

/** createTxFromRLP's constructor for each type it reads as fields (a type left out goes through it whole). */
const byType: Partial<Record<number, FromFields>> = {
  1: createAccessList2930TxFromBytesArray as FromFields,
  2: create1559FeeMarketTxFromBytesArray as FromFields,
  4: createEOACode7702TxFromBytesArray as FromFields,
}

/**
 * createTxFromRLP, its fields read in place (its RLP.decode copies each, 5 KB a transfer): the same
 * constructors on the same values. Bytes it would refuse go to it, so it refuses them with its own words.
 */
function fromStored(raw: Uint8Array, opts: TxOptions): TypedTransaction {
  const typed = raw[0]! <= 0x7f
  const build = typed ? byType[raw[0]!] : (createLegacyTxFromBytesArray as FromFields)
  let values: Item | undefined
  try {
    values = build && decodeViews(typed ? raw.subarray(1) : raw, notRlp)
  } catch {}
  return build && Array.isArray(values) ? build(values as Uint8Array[], opts) : createTxFromRLP(raw, opts)
}

const notRlp = () => new Error('not RLP')

/**
 * Whether @ethereumjs's hash of `raw` (the keccak of the transaction re-encoded from its fields) is the keccak
 * of `raw` itself. Its decoder and RLP refuse every non-minimal encoding but one: a typed transaction's chain
 * id with leading zeros (the value is checked, the bytes are not). eth_sendRawTransaction refuses that too now,
 * as geth does (pool/canonical-integers.ts), but data directories written before may hold such blocks. A legacy
 * transaction's chain id is in its `v`, which is checked. The chain id is the chain's (admission refuses
 * another), so its minimal encoding is known and compared in place.
 */
function hashedAsStored(raw: Uint8Array, common: Common): boolean {
  if (raw[0]! >= 0xc0) return true
  const list = raw[1]!
  let at = list <= 0xf7 ? 2 : 2 + list - 0xf7
  for (const byte of chainIdItem(common)) if (raw[at++] !== byte) return false
  return true
}

const chainIdItems = new WeakMap<Common, Uint8Array>()

function chainIdItem(common: Common): Uint8Array {
  let item = chainIdItems.get(common)
  if (!item) chainIdItems.set(common, (item = RLP.encode(bigIntToUnpaddedBytes(common.chainId()))))
  return item
}
