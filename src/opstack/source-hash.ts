/**
 * Deposit source hashes (specs/protocol/deposits.md "Source hash computation"):
 * keccak256(bytes32(domain) ++ keccak256(input)). Domain 0 is a user deposit (an L1 log), domain 1 the
 * L1-info deposit (L1 block hash ++ sequence number), so the two can never collide.
 */
import { keccak_256 } from '@noble/hashes/sha3.js'

const USER_DEPOSIT_DOMAIN = 0n
const L1_INFO_DEPOSIT_DOMAIN = 1n

export function uint256Bytes(value: bigint): Uint8Array {
  const out = new Uint8Array(32)
  let v = value
  for (let i = 31; i >= 0 && v > 0n; i--) {
    out[i] = Number(v & 0xffn)
    v >>= 8n
  }
  return out
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  let at = 0
  for (const p of parts) {
    out.set(p, at)
    at += p.length
  }
  return out
}

function depositSourceHash(domain: bigint, l1BlockHash: Uint8Array, index: bigint): Uint8Array {
  const inner = keccak_256(concat(l1BlockHash, uint256Bytes(index)))
  return keccak_256(concat(uint256Bytes(domain), inner))
}

/** The source hash of a user deposit emitted as log `logIndex` of L1 block `l1BlockHash`. */
export function userDepositSourceHash(l1BlockHash: Uint8Array, logIndex: bigint): Uint8Array {
  return depositSourceHash(USER_DEPOSIT_DOMAIN, l1BlockHash, logIndex)
}

/** The source hash of the L1-info deposit of the `sequenceNumber`-th L2 block of an L1 origin. */
export function l1InfoSourceHash(l1BlockHash: Uint8Array, sequenceNumber: bigint): Uint8Array {
  return depositSourceHash(L1_INFO_DEPOSIT_DOMAIN, l1BlockHash, sequenceNumber)
}
