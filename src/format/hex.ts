/**
 * The wire codec: domain values (bigint, Uint8Array) to JSON-RPC hex and back. Everything that crosses
 * the boundary goes through here, so quantities never carry leading zeros and data is always 0x-prefixed.
 */
import { bigIntToHex, bytesToHex, hexToBytes } from '@ethereumjs/util'

export type Hex = `0x${string}`

/** A hex quantity: `0x0`, `0x1a`; never leading zeros. */
export function quantity(value: bigint | number): Hex {
  return bigIntToHex(BigInt(value)) as Hex
}

/** Hex data of exactly the given bytes. */
export function data(bytes: Uint8Array): Hex {
  return bytesToHex(bytes) as Hex
}

/** Parses a validated hex quantity. */
export function parseQuantity(hex: string): bigint {
  return BigInt(hex)
}

/** Parses validated hex data (an odd length is padded on the left, as geth does for storage keys). */
export function parseData(hex: string): Uint8Array {
  const body = hex.slice(2)
  return hexToBytes(`0x${body.length % 2 ? `0${body}` : body}`)
}

/** An address as geth writes it: lower-case hex. */
export function address(bytes: Uint8Array): Hex {
  return bytesToHex(bytes) as Hex
}
