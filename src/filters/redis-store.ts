/**
 * The polling filters in Redis (`--redis-url`), so a filter installed through one replica is polled and
 * uninstalled through any other (store.ts has the contract). Each filter is a hash with its kind, definition
 * (the client's JSON), cursor and owner, expiring FILTER_IDLE_TIMEOUT_MS after its last poll, on Redis's
 * clock. A client's filters are a set whose dead members are swept at install, so the per-client budget holds
 * across replicas. Every step is one Lua script, so a cursor moves atomically and each change goes out once.
 *
 * Pending transactions go into one shared log (a sorted set by sequence number, a hash at most once, the
 * newest MAX_QUEUED_HASHES kept); a pending filter's cursor is a sequence number. Whichever process sees a
 * transaction accepted (the sequencer's pool, given the same --redis-url) appends it.
 *
 * The scripts name keys they read from a hash, so this needs one Redis server, not Redis Cluster.
 */
import { bytesToHex } from '@ethereumjs/util'
import type { Redis } from 'ioredis'
import { FilterNotFoundError, SharedStateUnavailableError, TooManyFiltersError } from '../errors.js'
import type { BlockRecord } from '../domain/types.js'
import type { Hex } from '../format/hex.js'
import type { RpcLog } from '../format/log.js'
import {
  FILTER_IDLE_TIMEOUT_MS,
  MAX_FILTERS_PER_CLIENT,
  MAX_LOGS_PER_RESPONSE,
  MAX_QUEUED_HASHES,
  SHARED_STATE_TIMEOUT_MS,
} from '../limits.js'
import { newFilterId } from './registry.js'
import { parseLogFilter } from './query.js'
import { ioredis } from '../load-on-use.js'
import { forkOf, newestFirst, removedLogs } from './removed-logs.js'
import type { FilterChanges, FilterSpec, FilterStore } from './store.js'

type LogSpec = Extract<FilterSpec, { kind: 'logs' }>

/** KEYS filter, owner set, pending sequence; ARGV kind, spec, cursor, ttl, max. 0 when the owner is at the limit. */
const INSTALL = `
for _, key in ipairs(redis.call('SMEMBERS', KEYS[2])) do
  if redis.call('EXISTS', key) == 0 then redis.call('SREM', KEYS[2], key) end
end
if redis.call('SCARD', KEYS[2]) >= tonumber(ARGV[5]) then return 0 end
local cursor = ARGV[3]
if ARGV[1] == 'pendingTransactions' then cursor = redis.call('GET', KEYS[3]) or '0' end
redis.call('HSET', KEYS[1], 'kind', ARGV[1], 'spec', ARGV[2], 'cursor', cursor)
redis.call('PEXPIRE', KEYS[1], ARGV[4])
redis.call('SADD', KEYS[2], KEYS[1])
redis.call('PEXPIRE', KEYS[2], ARGV[4])
return 1
`

/**
 * KEYS filter, pending log, removed logs; ARGV next cursor, ttl, max hashes. {spec, old cursor, hashes, removed
 * logs}, or nil if there is no filter.
 */
const CHANGES = `
local f = redis.call('HMGET', KEYS[1], 'kind', 'spec', 'cursor')
if not f[1] then return false end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
local removed = redis.call('SMEMBERS', KEYS[3])
redis.call('DEL', KEYS[3])
local hashes = {}
if f[1] == 'pendingTransactions' then
  local entries = redis.call('ZRANGEBYSCORE', KEYS[2], '(' .. f[3], '+inf', 'WITHSCORES', 'LIMIT', 0, tonumber(ARGV[3]))
  for i = 1, #entries, 2 do hashes[#hashes + 1] = entries[i] end
  if #entries > 0 then redis.call('HSET', KEYS[1], 'cursor', entries[#entries]) end
elseif tonumber(ARGV[1]) > tonumber(f[3]) then
  redis.call('HSET', KEYS[1], 'cursor', ARGV[1])
end
return {f[2], f[3], hashes, removed}
`

/**
 * KEYS filter, removed logs, reorgs applied; ARGV fork, ttl, reorg id, logs (JSON)... Every replica sees the
 * same reorg and runs this: the first one applies it (cursor back to the fork, logs queued), the others find
 * its id (the first removed block's hash) already applied, so the filter gets each removed log once.
 */
const REWIND = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
if redis.call('SADD', KEYS[3], ARGV[3]) == 0 then return 0 end
redis.call('PEXPIRE', KEYS[3], ARGV[2])
local cursor = redis.call('HGET', KEYS[1], 'cursor')
if tonumber(cursor) > tonumber(ARGV[1]) then redis.call('HSET', KEYS[1], 'cursor', ARGV[1]) end
for i = 4, #ARGV do redis.call('SADD', KEYS[2], ARGV[i]) end
if #ARGV >= 4 then redis.call('PEXPIRE', KEYS[2], ARGV[2]) end
return 1
`

/** KEYS pending sequence, pending log; ARGV max kept, hashes... */
const PUBLISH = `
for i = 2, #ARGV do
  if not redis.call('ZSCORE', KEYS[2], ARGV[i]) then
    redis.call('ZADD', KEYS[2], redis.call('INCR', KEYS[1]), ARGV[i])
  end
end
redis.call('ZREMRANGEBYRANK', KEYS[2], 0, -(tonumber(ARGV[1]) + 1))
`

export interface RedisFilterOptions {
  url: string
  /** Prefix of every key, so several clusters (or tests) can share one Redis. */
  keyPrefix?: string
  warn?: (message: string) => void
}

export class RedisFilterStore implements FilterStore {
  readonly #redis: Redis
  readonly #prefix: string
  readonly #warn: (message: string) => void
  /** Accepted hashes not yet appended: one script per event-loop turn, not one per transaction. */
  #unpublished: Hex[] = []

  constructor(options: RedisFilterOptions) {
    this.#prefix = options.keyPrefix ?? 'preconf-rpc:filters:'
    this.#warn = options.warn ?? (() => {})
    // as the rate limiter: fail at once while Redis is away, reconnect in the background
    this.#redis = new (ioredis().Redis)(options.url, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      connectTimeout: 1000,
      commandTimeout: SHARED_STATE_TIMEOUT_MS,
      retryStrategy: (attempt) => Math.min(attempt * 100, 1000),
      lazyConnect: false,
    })
    this.#redis.on('error', () => {}) // each failed command answers its own error
  }

  async install(spec: FilterSpec, cursor: bigint, owner: string): Promise<Hex> {
    const id = newFilterId()
    const keys = [this.#key(id), `${this.#prefix}owner:${owner}`, `${this.#prefix}pending:seq`]
    const args = [spec.kind, JSON.stringify(spec), cursor.toString(), FILTER_IDLE_TIMEOUT_MS, MAX_FILTERS_PER_CLIENT]
    const installed = await this.#run(() => this.#redis.eval(INSTALL, keys.length, ...keys, ...args))
    if (installed !== 1) throw new TooManyFiltersError(MAX_FILTERS_PER_CLIENT)
    return id
  }

  async changes(id: string, next: bigint): Promise<FilterChanges> {
    const keys = [this.#key(id), `${this.#prefix}pending:log`, this.#removedKey(id)]
    const reply = (await this.#run(() =>
      this.#redis.eval(CHANGES, keys.length, ...keys, next.toString(), FILTER_IDLE_TIMEOUT_MS, MAX_QUEUED_HASHES),
    )) as [string, string, Hex[], string[]] | null
    if (!reply) throw new FilterNotFoundError()
    const spec = JSON.parse(reply[0]) as FilterSpec
    const removed = newestFirst(reply[3].map((log) => JSON.parse(log) as RpcLog)).slice(0, MAX_LOGS_PER_RESPONSE)
    return { spec, from: spec.kind === 'pendingTransactions' ? 0n : BigInt(reply[1]), hashes: reply[2], removed }
  }

  async definition(id: string): Promise<FilterSpec> {
    const key = this.#key(id)
    const replies = await this.#run(() =>
      this.#redis.multi().hget(key, 'spec').pexpire(key, FILTER_IDLE_TIMEOUT_MS).exec(),
    )
    const spec = replies?.[0]?.[1] as string | null | undefined
    if (!spec) throw new FilterNotFoundError()
    return JSON.parse(spec) as FilterSpec
  }

  async uninstall(id: string): Promise<boolean> {
    const removed = (await this.#run(() => this.#redis.del(this.#key(id)))) === 1
    await this.#run(() => this.#redis.del(this.#removedKey(id), `${this.#key(id)}:reorgs`))
    return removed
  }

  /** Runs in the background for the chain's event; the promise (never rejected) is for whoever must wait. */
  onRemovedBlocks(blocks: readonly BlockRecord[]): Promise<void> {
    return this.#rewind(blocks).catch((err) =>
      this.#warn(`log filters in Redis missed a reorg's removed logs: ${(err as Error).message}`),
    )
  }

  /** Reorgs are rare: every log filter in Redis is read, and those that reported a removed block rewound. */
  async #rewind(blocks: readonly BlockRecord[]): Promise<void> {
    const fork = forkOf(blocks)
    if (fork === undefined) return
    for await (const keys of this.#redis.scanStream({ match: `${this.#prefix}0x*`, count: 100 })) {
      for (const key of (keys as string[]).filter((k) => !k.slice(this.#prefix.length).includes(':'))) {
        const [kind, spec, cursor] = await this.#redis.hmget(key, 'kind', 'spec', 'cursor')
        if (kind !== 'logs' || !spec || !cursor) continue
        const logs = removedLogs(parseLogFilter((JSON.parse(spec) as LogSpec).filter), BigInt(cursor), blocks)
        if (!logs) continue
        const reorg = bytesToHex(blocks[0]!.hash)
        const args = [fork.toString(), FILTER_IDLE_TIMEOUT_MS, reorg, ...logs.map((log) => JSON.stringify(log))]
        await this.#redis.eval(REWIND, 3, key, `${key}:removed`, `${key}:reorgs`, ...args)
      }
    }
  }

  onPendingTransaction(hash: Hex): void {
    if (this.#unpublished.push(hash) > 1) return
    setImmediate(() => {
      const hashes = this.#unpublished
      this.#unpublished = []
      const keys = [`${this.#prefix}pending:seq`, `${this.#prefix}pending:log`]
      this.#redis
        .eval(PUBLISH, keys.length, ...keys, MAX_QUEUED_HASHES, ...hashes)
        .catch((err) => this.#warn(`pending transactions not shared with other replicas: ${(err as Error).message}`))
    })
  }

  async close(): Promise<void> {
    this.#redis.disconnect()
  }

  /** Ids are hex of any letter case on the wire; one key per filter. */
  #key(id: string): string {
    return `${this.#prefix}${id.toLowerCase()}`
  }

  #removedKey(id: string): string {
    return `${this.#key(id)}:removed`
  }

  async #run<T>(command: () => Promise<T>): Promise<T> {
    try {
      return await command()
    } catch (err) {
      throw new SharedStateUnavailableError((err as Error).message)
    }
  }
}
