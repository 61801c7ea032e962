/**
 * The transaction pool: per-sender nonce order, future nonces queued until the gap fills, replacement
 * only with a >= 10% bump of both fee caps, and limits in total and per sender (a gap filler always gets
 * in). State checks (nonce, balance, EOA) read the head state: the state after the newest flashblock,
 * which the sequencer hands in with setHead, so a transaction preconfirmed a moment ago already counts.
 */
import type { Common } from '@ethereumjs/common'
import type { MerkleStateManager } from '@ethereumjs/statemanager'
import { Address, KECCAK256_NULL, equalsBytes } from '@ethereumjs/util'
import {
  AlreadyKnownError,
  ExceedsBlockGasLimitError,
  InsufficientFundsError,
  NonceTooLowError,
  ReplacementUnderpricedError,
  SendSyncNonceGapError,
  SenderNotEoaError,
  TxPoolFullError,
  GaslessGasLimitExceededError,
  GaslessNotWhitelistedError,
} from '../../errors.js'
import { type GaslessAllowance, isZeroPriced } from '../../opstack/gasless.js'
import { POOL_MAX_PER_SENDER, POOL_MAX_TOTAL } from '../../limits.js'
import { keyOf } from '../../domain/block-record.js'
import type { PoolContent, SendOptions } from '../../capabilities/submit.js'
import type { TxRecord as AnyTxRecord, UserTxRecord as TxRecord } from '../../domain/types.js'
import { isUserTx } from '../../domain/deposit-transaction.js'
import { maxDepositGas } from '../../opstack/block-opening.js'
import { type BlockLimits, checkStateless, decodeTransaction } from './admission.js'
import { type PoolEntry, poolEntry } from './entry.js'
import { priceOrdered } from './ready.js'
import { type SenderTxs, fillsGap, nextNonce, outbids } from './sender-queue.js'

type StateReader = Pick<MerkleStateManager, 'getAccount' | 'getCode'>

/** The state and block limits new transactions are checked against. */
export interface PoolHead extends BlockLimits {
  state: StateReader
  /**
   * Gas a block's opening takes (the most an OP block's L1-info deposit has used; absent: none seen yet, or
   * a plain chain). A user transaction asking for more than the gas limit leaves is refused, as one over the
   * limit is: no block could ever build it, and kept it would also hold back every later nonce of its sender.
   */
  openingGas?: bigint
}

export interface PoolOptions {
  maxTotal?: number
  maxPerSender?: number
  onAccepted?: (record: AnyTxRecord) => void
  onDropped?: (record: AnyTxRecord, reason: string) => void
  /**
   * X Layer's gasless admission gate: asks the whitelist about a zero-priced transaction at the head state;
   * absent = zero-priced transactions meet the base fee check like any other.
   */
  gasless?: { allowance: (record: TxRecord) => Promise<GaslessAllowance>; whitelist: string }
}

const DELEGATION_PREFIX = [0xef, 0x01, 0x00]

export class TxPool {
  private readonly byHash = new Map<string, PoolEntry>()
  private readonly bySender = new Map<string, SenderTxs>()
  private seq = 0
  /** Deposits sent with eth_sendRawTransaction, in arrival order: they open the next block. */
  private deposits: AnyTxRecord[] = []
  private readonly maxTotal: number
  private readonly maxPerSender: number

  constructor(
    private readonly common: Common,
    private head: PoolHead,
    private readonly options: PoolOptions = {},
  ) {
    this.maxTotal = options.maxTotal ?? POOL_MAX_TOTAL
    this.maxPerSender = options.maxPerSender ?? POOL_MAX_PER_SENDER
  }

  setHead(head: PoolHead): void {
    this.head = head
  }

  /** The dev node edited the head state: the same limits over the edited state. */
  rebase(state: StateReader): void {
    this.head = { ...this.head, state }
  }

  /** Every pooled transaction and waiting deposit, in arrival order (a dev snapshot keeps them). */
  entries(): { txs: TxRecord[]; deposits: AnyTxRecord[] } {
    const txs = [...this.byHash.values()].sort((a, b) => a.seq - b.seq).map((e) => e.record)
    return { txs, deposits: [...this.deposits] }
  }

  /** Drops everything (anvil_dropAllTransactions, a revert); waiters hear `reason` as for any drop. */
  clear(reason: string): void {
    for (const entry of [...this.byHash.values()]) this.drop(entry.record.hash, reason)
    for (const deposit of this.deposits) this.options.onDropped?.(deposit, reason)
    this.deposits = []
    this.bySender.clear()
  }

  get baseFee(): bigint {
    return this.head.baseFee
  }

  get size(): number {
    return this.byHash.size
  }

  get(hash: Uint8Array): AnyTxRecord | undefined {
    const key = keyOf(hash)
    return this.byHash.get(key)?.record ?? this.deposits.find((d) => keyOf(d.hash) === key)
  }

  /** The deposits waiting for the next block, handed over once (the sequencer places them after L1 info). */
  takeDeposits(): AnyTxRecord[] {
    const out = this.deposits
    this.deposits = []
    return out
  }

  /** Deposits a block could not fit: they open the next block, ahead of any sent since (L1 order). */
  returnDeposits(records: readonly AnyTxRecord[]): void {
    if (records.length > 0) this.deposits = [...records, ...this.deposits]
  }

  /** Admits a raw transaction; resolves to its hash or throws TransactionRejectedError with geth's text. */
  add(raw: Uint8Array, options: SendOptions = {}): Promise<Uint8Array> {
    return this.admit(decodeTransaction(raw, this.common), options)
  }

  /**
   * Admits a decoded transaction: add's path after decoding, where the dev node's impersonated
   * transactions and the transactions a snapshot held enter too.
   */
  async admit(decoded: AnyTxRecord, options: SendOptions = {}): Promise<Uint8Array> {
    const key = keyOf(decoded.hash)
    if (this.byHash.has(key) || this.get(decoded.hash)) throw new AlreadyKnownError()
    if (!isUserTx(decoded)) {
      // a deposit pays no fee and needs no signature: it waits for the next block as sent (anvil --optimism);
      if (decoded.tx.gasLimit > maxDepositGas(this.head.gasLimit)) throw new ExceedsBlockGasLimitError()
      this.deposits.push(decoded)
      this.options.onAccepted?.(decoded)
      return decoded.hash
    }
    const record = decoded
    const gasless = this.options.gasless && isZeroPriced(record) ? this.options.gasless : undefined
    // a gasless transaction meets no base fee (op-revm runs it under base fee 0)
    const limits = { ...this.head, gasLimit: this.head.gasLimit - (this.head.openingGas ?? 0n) }
    checkStateless(record, gasless ? { ...limits, baseFee: 0n } : limits)
    if (gasless) {
      // okx/optimism 3349a7c rust/op-reth/crates/txpool/src/validator.rs, apply_xlayer_gasless_check
      const allowance = await gasless.allowance(record)
      if (!allowance.allowed) throw new GaslessNotWhitelistedError(gasless.whitelist)
      if (record.tx.gasLimit > allowance.gasLimit)
        throw new GaslessGasLimitExceededError(record.tx.gasLimit, allowance.gasLimit)
    }
    const address = new Address(record.sender)
    // read the sender at one head: if a flashblock lands while we read, read again at the new head, or a
    // stale nonce would let in a used nonce and anchor a new sender queue below the chain's nonce
    let head: PoolHead
    let account: Awaited<ReturnType<StateReader['getAccount']>>
    do {
      head = this.head
      account = await head.state.getAccount(address)
      if (account && !equalsBytes(account.codeHash, KECCAK256_NULL)) {
        const code = await head.state.getCode(address)
        if (!DELEGATION_PREFIX.every((b, i) => code[i] === b)) throw new SenderNotEoaError()
      }
    } while (head !== this.head)
    // from here on synchronous: no other admission or head change interleaves
    if (this.byHash.has(key)) throw new AlreadyKnownError()
    const tx = record.tx
    const senderKey = keyOf(record.sender)
    const queue = this.bySender.get(senderKey)
    const stateNonce = maxBig(account?.nonce ?? 0n, queue?.stateNonce ?? 0n)
    if (tx.nonce < stateNonce) throw new NonceTooLowError()
    if (options.rejectNonceGap) {
      const expected = nextNonce(queue, stateNonce)
      if (tx.nonce > expected) throw new SendSyncNonceGapError(expected)
    }
    const entry = poolEntry(record, this.seq)
    if ((account?.balance ?? 0n) < tx.gasLimit * entry.feeCap + tx.value) {
      throw new InsufficientFundsError()
    }
    const existing = queue?.byNonce.get(tx.nonce)
    if (existing) {
      if (!outbids(entry, existing)) throw new ReplacementUnderpricedError()
      this.byHash.delete(keyOf(existing.record.hash))
    } else if (
      (this.byHash.size >= this.maxTotal || (queue?.byNonce.size ?? 0) >= this.maxPerSender) &&
      !(queue && fillsGap(queue, tx.nonce))
    ) {
      throw new TxPoolFullError()
    }
    this.seq++
    const target = queue ?? { sender: record.sender, stateNonce, byNonce: new Map() }
    if (!queue) this.bySender.set(senderKey, target)
    target.byNonce.set(tx.nonce, entry)
    this.byHash.set(key, entry)
    this.options.onAccepted?.(record)
    return record.hash
  }

  /** Highest consecutive pool nonce + 1 from the head state's nonce, or that nonce. */
  async pendingNonce(address: Uint8Array): Promise<bigint> {
    const stateNonce = (await this.head.state.getAccount(new Address(address)))?.nonce ?? 0n
    const queue = this.bySender.get(keyOf(address))
    return nextNonce(queue, maxBig(stateNonce, queue?.stateNonce ?? 0n))
  }

  /** Executable transactions, best effective tip first, each sender's in nonce order (a snapshot). */
  ready(): Iterable<TxRecord> {
    const runs: PoolEntry[][] = []
    for (const queue of this.bySender.values()) {
      const run: PoolEntry[] = []
      for (let n = queue.stateNonce, e = queue.byNonce.get(n); e; e = queue.byNonce.get(++n)) run.push(e)
      if (run.length > 0) runs.push(run)
    }
    return priceOrdered(runs, this.head.baseFee)
  }

  /** After a flashblock: re-reads these senders' nonces from the (new) head state and forgets what is stale. */
  async refresh(senders: Iterable<Uint8Array>): Promise<void> {
    const keys = [...new Set([...senders].map(keyOf))].filter((k) => this.bySender.has(k))
    const nonces = await Promise.all(
      keys.map(async (k) => {
        const queue = this.bySender.get(k)!
        return (await this.head.state.getAccount(new Address(queue.sender)))?.nonce ?? 0n
      }),
    )
    keys.forEach((k, i) => {
      const queue = this.bySender.get(k)
      if (!queue) return
      queue.stateNonce = maxBig(queue.stateNonce, nonces[i])
      for (const [nonce, entry] of queue.byNonce) {
        if (nonce < queue.stateNonce) {
          queue.byNonce.delete(nonce)
          this.byHash.delete(keyOf(entry.record.hash))
        }
      }
      if (queue.byNonce.size === 0) this.bySender.delete(k)
    })
  }

  /** Removes a transaction that can no longer execute (its later nonces wait, queued, for the gap). */
  drop(hash: Uint8Array, reason: string): void {
    const entry = this.byHash.get(keyOf(hash))
    if (!entry) return
    this.byHash.delete(keyOf(hash))
    const senderKey = keyOf(entry.record.sender)
    const queue = this.bySender.get(senderKey)
    queue?.byNonce.delete(entry.nonce)
    if (queue && queue.byNonce.size === 0) this.bySender.delete(senderKey)
    this.options.onDropped?.(entry.record, reason)
  }

  /** txpool_content: executable (pending) and waiting-for-a-gap (queued) transactions per sender. */
  content(): PoolContent {
    const out: PoolContent = { pending: [], queued: [] }
    for (const queue of this.bySender.values()) {
      const sorted = [...queue.byNonce.values()].sort((a, b) => (a.nonce < b.nonce ? -1 : 1))
      const pending: TxRecord[] = []
      const queued: TxRecord[] = []
      let next = queue.stateNonce
      for (const e of sorted) {
        if (e.nonce === next) {
          pending.push(e.record)
          next++
        } else queued.push(e.record)
      }
      if (pending.length) out.pending.push({ sender: queue.sender, txs: pending })
      if (queued.length) out.queued.push({ sender: queue.sender, txs: queued })
    }
    return out
  }
}

function maxBig(a: bigint, b: bigint): bigint {
  return a > b ? a : b
}
