/**
 * What the dev-node handlers (anvil_*, evm_*, hardhat_*) share: the DevNode capability, and quantities
 * read as anvil reads them (hex, leading zeros allowed, or a JSON number) with bounds named after the
 * parameter, as the generated checks name it: `invalid argument 1 (nonce): ...`.
 */
import type { DevNode } from '../capabilities/dev-node.js'
import { InvalidParamsError, MethodNotFoundError } from '../errors.js'
import type { DevQuantity } from '../../generated/types.js'
import type { HandlerContext } from './context.js'

/** The dev node; the dispatcher answers -32601 before any handler where dev methods are off. */
export function devNode(ctx: HandlerContext): DevNode {
  if (!ctx.dev) throw new MethodNotFoundError('dev-node methods')
  return ctx.dev
}

export const U64_MAX = (1n << 64n) - 1n

/** A validated DevQuantity as a bigint, refused above `max` with the parameter's place and name. */
export function devQuantity(value: DevQuantity, index: number, name: string, max = (1n << 256n) - 1n): bigint {
  const n = BigInt(value)
  if (n > max) throw new InvalidParamsError(`invalid argument ${index} (${name}): ${value} is above ${max}`)
  return n
}

/** An optional DevQuantity (absent and null alike). */
export function optionalQuantity(
  value: DevQuantity | null | undefined,
  index: number,
  name: string,
  max?: bigint,
): bigint | undefined {
  return value === undefined || value === null ? undefined : devQuantity(value, index, name, max)
}
