/**
 * Fast crypto for @ethereumjs through Common.customCrypto: WASM keccak (4-8x the pure-JS one) and the
 * native secp256k1 binding for sender recovery (~20x; noble caps admission near 400 tx/s per core).
 * Roots and hashes are unchanged (measured against noble and revm: docs/design/evm-engine.md section 2).
 */
import { type KZG, setLengthLeft } from '@ethereumjs/util'
import { createKeccak } from 'hash-wasm'
import { createRequire } from 'node:module'

const wasmKeccak = await createKeccak(256)

export function keccak256(message: Uint8Array): Uint8Array {
  // init/update/digest run synchronously, so one instance is safe on one thread
  wasmKeccak.init()
  wasmKeccak.update(message)
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
 * No KZG library is bundled (the chain takes no blob transactions). Without any `kzg` the EVM's point
 * evaluation precompile (0x0a) throws a JS error mid-transaction, which leaks a state checkpoint and
 * corrupts the flashblock; with this one the precompile call fails like an invalid proof and the
 * transaction is included with a failed call, as any other precompile failure would be.
 */
const noKzg = (): never => {
  throw new Error('KZG is not available on this chain')
}
export const unavailableKzg: KZG = {
  blobToKzgCommitment: noKzg,
  computeBlobProof: noKzg,
  verifyProof: noKzg,
  verifyBlobProofBatch: noKzg,
  computeCells: noKzg,
  computeCellsAndProofs: noKzg,
  recoverCellsAndProofs: noKzg,
  verifyCellKzgProofBatch: noKzg,
}
