/**
 * Dev accounts from a BIP-39 mnemonic on the path m/44'/60'/0'/0/i, the same accounts anvil and Hardhat
 * derive (index 0 of the test mnemonic is 0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266).
 *
 * BIP-32's private derivation by node:crypto (HMAC-SHA512, OpenSSL's secp256k1 for the public keys), not by
 * @scure/bip32: the first point multiplication of @noble/curves builds its base-point table, ~220 ms of CPU in a
 * fresh process and ~30 ms a chain after; every chain a process makes derives its accounts. accounts.test.ts
 * holds this to anvil's keys and to @scure/bip32's derivation from the root.
 */
import { createECDH, createHmac, pbkdf2Sync } from 'node:crypto'
import { bytesToBigInt, publicToAddress } from '@ethereumjs/util'
import type { DevAccount } from '../domain/types.js'

/** secp256k1's group order: a child key is (parent + tweak) mod N. */
const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n
const HARDENED = 0x80000000

/**
 * BIP-39's seed (PBKDF2-HMAC-SHA512, 2 048 rounds, salt "mnemonic", no passphrase) by Node's own PBKDF2,
 * ~3 ms where @scure/bip39's JavaScript one takes ~25.
 */
function seedOf(mnemonic: string): Uint8Array {
  return pbkdf2Sync(mnemonic.normalize('NFKD'), 'mnemonic', 2048, 64, 'sha512')
}

interface ExtendedKey {
  key: bigint
  chainCode: Uint8Array
  /** Its compressed public key, once a non-hardened child needed it (the accounts' parent: once for all). */
  compressed?: Buffer
}

function publicKey(key: bigint, form: 'compressed' | 'uncompressed'): Buffer {
  const ecdh = createECDH('secp256k1')
  ecdh.setPrivateKey(keyBytes(key))
  return ecdh.getPublicKey(null, form)
}

/** A private key as its 32 bytes. */
function keyBytes(key: bigint): Buffer {
  return Buffer.from(key.toString(16).padStart(64, '0'), 'hex')
}

/** BIP-32's `I = HMAC-SHA512(key, data)` split into the tweak (IL) and the chain code (IR). */
function split(hmacKey: Uint8Array, data: Uint8Array): { tweak: bigint; chainCode: Uint8Array } {
  const i = createHmac('sha512', hmacKey).update(data).digest()
  return { tweak: bytesToBigInt(i.subarray(0, 32)), chainCode: i.subarray(32) }
}

/** CKDpriv: hardened children hash the private key, the others the compressed public key. */
function child(parent: ExtendedKey, index: number): ExtendedKey {
  const data = Buffer.alloc(37)
  if (index >= HARDENED) keyBytes(parent.key).copy(data, 1)
  else (parent.compressed ??= publicKey(parent.key, 'compressed')).copy(data)
  data.writeUInt32BE(index, 33)
  const { tweak, chainCode } = split(parent.chainCode, data)
  const key = (tweak + parent.key) % N
  // BIP-32: such an index (odds below 2^-127) is skipped; no mnemonic is known to reach it
  if (tweak >= N || key === 0n) throw new Error(`cannot derive BIP-32 child ${index}`)
  return { key, chainCode }
}

/**
 * The last derivation, kept: a process that makes many chains (the tests, a cluster of services) makes them from
 * one mnemonic, and each public key costs OpenSSL ~1 ms. One entry only, so no mnemonic outlives its use by much.
 */
let last: { mnemonic: string; accounts: readonly DevAccount[] } | undefined

export function deriveDevAccounts(mnemonic: string, count: number): DevAccount[] {
  if (last?.mnemonic !== mnemonic || last.accounts.length < count)
    last = { mnemonic, accounts: derive(mnemonic, count) }
  return last.accounts.slice(0, count)
}

function derive(mnemonic: string, count: number): DevAccount[] {
  const master = split(Buffer.from('Bitcoin seed'), seedOf(mnemonic))
  let parent: ExtendedKey = { key: master.tweak, chainCode: master.chainCode }
  // the common parent m/44'/60'/0'/0 once, then one step per account
  for (const index of [44 + HARDENED, 60 + HARDENED, HARDENED, 0]) parent = child(parent, index)
  return Array.from({ length: count }, (_, i) => {
    const { key } = child(parent, i)
    // the uncompressed public key without its 0x04 prefix, as Ethereum hashes it
    const address = publicToAddress(publicKey(key, 'uncompressed').subarray(1))
    return { address, privateKey: new Uint8Array(keyBytes(key)) }
  })
}
