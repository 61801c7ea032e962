/**
 * How a flag's text becomes a value: each reader refuses text of the wrong shape with a sentence naming the
 * flag. Whether the value is usable (in range, consistent with the rest) is checkConfig's question, asked of
 * the CLI's and startService's settings alike.
 */
import { hexToBytes } from '@ethereumjs/util'
import { GASLESS_MAX_GAS_LIMIT } from '../../limits.js'
import { WEI_PER_OKB } from '../defaults.js'
import { parseGoDuration } from '../../format/go-duration.js'
import { ConfigError, type GaslessTarget } from '../settings.js'

/** Reads the text given to `--flag` (the flag's name without dashes, for the message). */
export type Read<T> = (text: string, flag: string) => T

const WHOLE = /^(\d+|0x[0-9a-fA-F]+)$/

export const text: Read<string> = (value) => value

export const integer: Read<number> = (value, flag) => {
  if (!/^\d+$/.test(value)) throw new ConfigError(`--${flag} expects a whole number, got "${value}"`)
  return Number(value)
}

/** --history: a number of blocks, or `all`. */
export const blocksOrAll: Read<number | 'all'> = (value, flag) => (value === 'all' ? 'all' : integer(value, flag))

/** A decimal or 0x whole number, of any size. */
export const wholeNumber: Read<bigint> = (value, flag) => {
  if (!WHOLE.test(value)) throw new ConfigError(`--${flag} expects a whole number, got "${value}"`)
  return BigInt(value)
}

/** A block number: decimal digits, read exactly (a Number would round past 2^53). */
export const blockNumber: Read<bigint> = (value, flag) => {
  integer(value, flag)
  return BigInt(value)
}

/** `2`, `0.5` seconds -> ms. */
export const seconds: Read<number> = (value, flag) => {
  if (!/^\d+(\.\d+)?$/.test(value)) throw new ConfigError(`--${flag} expects a number, got "${value}"`)
  return Math.round(Number(value) * 1000)
}

/** reth's duration flags (parse_duration_from_secs_or_ms): `6s`, `500ms`, or a number of seconds -> ms. */
export const duration: Read<number> = (value, flag) => {
  const match = /^(\d+(?:\.\d+)?)(ms|s)?$/.exec(value)
  if (!match) throw new ConfigError(`--${flag} expects a duration such as 6s or 500ms, got "${value}"`)
  return Math.round(Number(match[1]) * (match[2] === 'ms' ? 1 : 1000))
}

/** geth's duration flags (Go's time.ParseDuration): `5s`, `300ms`, `1m30s`, `0` -> ms. */
export const goDuration: Read<number> = (value, flag) => {
  const ms = parseGoDuration(value)
  if (ms === undefined)
    throw new ConfigError(`--${flag} expects a duration such as 5s, 300ms or 1m30s (0 = none), got "${value}"`)
  return ms
}

/** `10000`, `0.5` OKB -> wei; more than 18 decimals cannot be represented. */
export const okb: Read<bigint> = (value, flag) => {
  const match = /^(\d+)(?:\.(\d{1,18}))?$/.exec(value)
  if (!match) throw new ConfigError(`--${flag} expects an amount of OKB such as 10000 or 0.5, got "${value}"`)
  return BigInt(match[1]!) * WEI_PER_OKB + BigInt((match[2] ?? '').padEnd(18, '0'))
}

/** A phrase as typed, its words separated by single spaces. */
export const words: Read<string> = (value) => value.trim().replace(/\s+/g, ' ')

/** `a, b,c` -> ['a', 'b', 'c'] (empty items dropped). */
export const list: Read<string[]> = (value) =>
  value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '')

/** `0xabc…[:gas],…` -> whitelist targets (gas defaults to the whitelist's cap). */
export const gaslessTargets: Read<GaslessTarget[]> = (value, flag) =>
  list(value, flag).map((item) => {
    const match = /^(0x[0-9a-fA-F]{40})(?::(\d+|0x[0-9a-fA-F]+))?$/.exec(item)
    if (!match) throw new ConfigError(`--${flag} expects address[:gas],..., got "${item}"`)
    return { address: hexToBytes(match[1] as `0x${string}`), gasLimit: BigInt(match[2] ?? GASLESS_MAX_GAS_LIMIT) }
  })

/** A name checkConfig knows the list of (--network, --feed-dialect): refused there, for startService's too. */
export const name = <T extends string>(value: string) => value as T
