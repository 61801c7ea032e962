/**
 * Reading eth_subscribe arguments with geth's wording. Argument numbers count the kind name as 0, as geth's
 * parsePositionalArguments does, so the first kind-specific argument is `argument 1`.
 */
import { InvalidParamsError } from '../errors.js'
import type { Hex } from '../format/hex.js'

const ADDRESS = /^0x[0-9a-fA-F]{40}$/
const HASH = /^0x[0-9a-fA-F]{64}$/

export function expectAtMost(args: readonly unknown[], count: number): void {
  if (args.length > count) throw new InvalidParamsError(`too many arguments, want at most ${count + 1}`)
}

/** An optional trailing boolean (absent or null = false). */
export function optionalBoolean(args: readonly unknown[], name: string): boolean {
  expectAtMost(args, 1)
  const value = args[0]
  if (value === undefined || value === null) return false
  if (typeof value !== 'boolean') throw invalid(name, `expected boolean, got ${typeName(value)}`)
  return value
}

export function invalid(name: string, problem: string): InvalidParamsError {
  return new InvalidParamsError(`invalid argument 1 (${name}): ${problem}`)
}

export function typeName(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  return typeof value
}

export function readAddress(value: unknown, name: string): Hex {
  if (typeof value !== 'string' || !ADDRESS.test(value)) {
    throw invalid(name, `expected a 20-byte hex address, got ${JSON.stringify(value)}`)
  }
  return value.toLowerCase() as Hex
}

export function readHash(value: unknown, name: string): Hex {
  if (typeof value !== 'string' || !HASH.test(value)) {
    throw invalid(name, `expected a 32-byte hex hash, got ${JSON.stringify(value)}`)
  }
  return value.toLowerCase() as Hex
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
