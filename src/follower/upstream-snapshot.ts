/**
 * Reads of one upstream block's state, fetched in batches and kept for the life of that block. Every read
 * made before the event loop turns goes out in one JSON-RPC batch (eth_getBalance + eth_getTransactionCount +
 * eth_getCode per account, eth_getStorageAt per slot, all at the block number), and `prefetch` loads what
 * a flashblock's transactions will touch before the first one runs, so a flashblock costs a few round
 * trips rather than one per read (RPCStateManager's 120 sequential requests, evm-engine.md section 6).
 * Values are immutable, so a failed load is forgotten and retried on next read. eth_getProof is asked only
 * for an account's storage root, which only the EIP-7610 creation check needs (`storageRoot`).
 */
import { Account, KECCAK256_RLP, bytesToHex, hexToBytes, unpadBytes } from '@ethereumjs/util'
import { keccak256 } from '../evm/crypto.js'
import { keyOf } from '../domain/block-record.js'
import { UpstreamUnavailableError } from '../errors.js'
import { UPSTREAM_BATCH_MAX } from '../limits.js'
import type { UpstreamCall, UpstreamRpc } from './upstream-rpc.js'

/** An account as the upstream has it at the snapshot's block; undefined fields mean "does not exist". */
export interface UpstreamAccount {
  readonly nonce: bigint
  readonly balance: bigint
  readonly codeHash: Uint8Array
  readonly code: Uint8Array
}

export interface SnapshotStats {
  /** HTTP requests (each one batch). */
  requests: number
  /** JSON-RPC calls inside them. */
  calls: number
}

type Load = { calls: UpstreamCall[]; settle: (results: unknown[] | Error) => void }

export class UpstreamSnapshot {
  readonly stats: SnapshotStats = { requests: 0, calls: 0 }
  private readonly tag: string
  private readonly accounts = new Map<string, Promise<UpstreamAccount | undefined>>()
  private readonly slots = new Map<string, Promise<Uint8Array>>()
  private readonly storageRoots = new Map<string, Promise<Uint8Array>>()
  /** The storage roots loaded so far, readable without waiting (getAccount answers them). */
  private readonly knownRoots = new Map<string, Uint8Array>()
  /**
   * The accounts and slots loaded so far, readable without waiting (the EVM interpreter's host reads them
   * so and goes on without an await); null: no account there.
   */
  private readonly loadedAccounts = new Map<string, UpstreamAccount | null>()
  private readonly loadedSlots = new Map<string, Uint8Array>()
  private queue: Load[] = []
  /** Frames running on this snapshot (`frame`), and the upstream failure one of their reads met. */
  private frames = 0
  private fault: UpstreamUnavailableError | undefined

  constructor(
    private readonly upstream: UpstreamRpc,
    readonly blockNumber: bigint,
  ) {
    this.tag = `0x${blockNumber.toString(16)}`
  }

  /** Whether this account was asked for already (loaded or loading). */
  has(address: Uint8Array): boolean {
    return this.accounts.has(keyOf(address))
  }

  account(address: Uint8Array): Promise<UpstreamAccount | undefined> {
    const key = keyOf(address)
    let loading = this.accounts.get(key)
    if (!loading) {
      const params = [bytesToHex(address), this.tag]
      loading = this.load(
        key,
        this.accounts,
        [
          { method: 'eth_getBalance', params },
          { method: 'eth_getTransactionCount', params },
          { method: 'eth_getCode', params },
        ],
        ([balance, nonce, code]) => {
          const account = toAccount(
            BigInt(balance as string),
            BigInt(nonce as string),
            hexToBytes(code as `0x${string}`),
          )
          this.loadedAccounts.set(key, account ?? null)
          return account
        },
      )
    }
    return loading
  }

  /** The account if `account` loaded it already (null: none there), else undefined. */
  loadedAccount(address: Uint8Array): UpstreamAccount | null | undefined {
    return this.loadedAccounts.get(keyOf(address))
  }

  /** Stripped of leading zeros (empty for zero), as the EVM stores and compares slot values. */
  storage(address: Uint8Array, slot: Uint8Array): Promise<Uint8Array> {
    const key = `${keyOf(address)}:${keyOf(slot)}`
    let loading = this.slots.get(key)
    if (!loading) {
      loading = this.load(
        key,
        this.slots,
        [{ method: 'eth_getStorageAt', params: [bytesToHex(address), bytesToHex(slot), this.tag] }],
        ([value]) => {
          const stripped = unpadBytes(hexToBytes(value as `0x${string}`))
          this.loadedSlots.set(key, stripped)
          return stripped
        },
      )
    }
    return loading
  }

  /** The slot's value if `storage` loaded it already, else undefined. */
  loadedStorage(address: Uint8Array, slot: Uint8Array): Uint8Array | undefined {
    return this.loadedSlots.get(`${keyOf(address)}:${keyOf(slot)}`)
  }

  /**
   * The account's storage root (eth_getProof's storageHash, no slots): the one fact about storage the
   * value reads cannot give. An account that does not exist (geth answers a zero hash) has the empty root.
   */
  storageRoot(address: Uint8Array): Promise<Uint8Array> {
    const key = keyOf(address)
    let loading = this.storageRoots.get(key)
    if (!loading) {
      loading = this.load(
        key,
        this.storageRoots,
        [{ method: 'eth_getProof', params: [bytesToHex(address), [], this.tag] }],
        ([proof]) => {
          const hash = hexToBytes((proof as { storageHash: `0x${string}` }).storageHash)
          const root = hash.length !== 32 || hash.every((b) => b === 0) ? KECCAK256_RLP : hash
          this.knownRoots.set(key, root)
          return root
        },
      )
    }
    return loading
  }

  /** The storage root if `storageRoot` loaded it already. */
  knownStorageRoot(address: Uint8Array): Uint8Array | undefined {
    return this.knownRoots.get(keyOf(address))
  }

  /**
   * Loads these accounts and slots in as few batches as the batch limit allows. Rejects with the first
   * failure once every load settled: the caller is about to read them, and a read would ask the upstream
   * that just failed again and wait out a second deadline (a failed load is forgotten, so it would).
   */
  async prefetch(
    accounts: Iterable<Uint8Array>,
    slots: Iterable<{ address: Uint8Array; slot: Uint8Array }> = [],
  ): Promise<void> {
    const reads: Promise<unknown>[] = []
    for (const address of accounts) reads.push(this.account(address))
    for (const { address, slot } of slots) reads.push(this.storage(address, slot))
    for (const read of await Promise.allSettled(reads)) if (read.status === 'rejected') throw read.reason
  }

  /**
   * Runs one flashblock on this snapshot: once a read fails to reach the upstream (a stall past the
   * deadline), every later read that would ask it fails at once with the same error until the frame ends,
   * so a stalled upstream costs a frame one deadline, not one per transaction whose reads it lacks. Rejects
   * with that failure whatever the run made of it (a skipped transaction, an "engine fault"). Reads of
   * others sharing the snapshot meanwhile (pending reads of the same block) fail fast too.
   */
  async frame<T>(run: () => Promise<T>): Promise<T> {
    this.frames++
    try {
      const result = await run()
      if (this.fault) throw this.fault
      return result
    } catch (err) {
      throw this.fault ?? err
    } finally {
      if (--this.frames === 0) this.fault = undefined
    }
  }

  private load<T>(
    key: string,
    cache: Map<string, Promise<T>>,
    calls: UpstreamCall[],
    parse: (results: unknown[]) => T,
  ): Promise<T> {
    if (this.fault) return Promise.reject(this.fault)
    const promise = new Promise<T>((resolve, reject) => {
      // a macrotask later: every read that concurrent executions reach before blocking joins the batch
      if (this.queue.length === 0) setImmediate(() => this.flush())
      this.queue.push({
        calls,
        settle: (results) => {
          if (results instanceof Error) {
            cache.delete(key)
            reject(results)
          } else {
            try {
              resolve(parse(results))
            } catch (err) {
              cache.delete(key)
              reject(err)
            }
          }
        },
      })
    })
    cache.set(key, promise)
    return promise
  }

  private flush(): void {
    const loads = this.queue
    this.queue = []
    let chunk: Load[] = []
    let size = 0
    for (const load of loads) {
      if (size + load.calls.length > UPSTREAM_BATCH_MAX && chunk.length) {
        this.send(chunk)
        chunk = []
        size = 0
      }
      chunk.push(load)
      size += load.calls.length
    }
    if (chunk.length) this.send(chunk)
  }

  private send(loads: Load[]): void {
    const calls = loads.flatMap((l) => l.calls)
    this.stats.requests++
    this.stats.calls += calls.length
    this.upstream.batch(calls).then(
      (results) => {
        let at = 0
        for (const load of loads) {
          load.settle(results.slice(at, at + load.calls.length))
          at += load.calls.length
        }
      },
      (err: unknown) => {
        const error = err instanceof Error ? err : new Error(String(err))
        if (this.frames > 0 && error instanceof UpstreamUnavailableError) this.fault ??= error
        for (const load of loads) load.settle(error)
      },
    )
  }
}

function toAccount(balance: bigint, nonce: bigint, code: Uint8Array): UpstreamAccount | undefined {
  // EIP-161: an account with no nonce, balance or code is the same as none
  if (nonce === 0n && balance === 0n && code.length === 0) return undefined
  return { nonce, balance, code, codeHash: keccak256(code) }
}

/**
 * A fresh, mutable @ethereumjs Account (the EVM mutates what it gets). The storage root is the empty one
 * unless the caller learned it (UpstreamSnapshot.storageRoot): only the EIP-7610 creation check reads it.
 */
export function accountOf(upstream: UpstreamAccount, storageRoot = KECCAK256_RLP): Account {
  return new Account(upstream.nonce, upstream.balance, storageRoot, upstream.codeHash)
}
