import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex, hexToBytes } from '@ethereumjs/util'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { loadKzg } from '../../src/evm/crypto.js'
import { type RunningService, startService } from '../../src/service.js'
import { rpc } from '../support/rpc.js'

const POINT_EVALUATION = '0x000000000000000000000000000000000000000a'
/** What the precompile returns on success: FIELD_ELEMENTS_PER_BLOB and BLS_MODULUS as two words. */
const SUCCESS = `0x${4096n.toString(16).padStart(64, '0')}${0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001n.toString(16).padStart(64, '0')}`

const word = (n: bigint) => n.toString(16).padStart(64, '0')

/** EIP-4844's input: versioned hash | z | y | commitment | proof. */
function input(commitment: string, z: bigint, y: bigint, proof: string): string {
  const hash = sha256(hexToBytes(commitment as `0x${string}`))
  hash[0] = 0x01
  return `0x${bytesToHex(hash).slice(2)}${word(z)}${word(y)}${commitment.slice(2)}${proof.slice(2)}`
}

describe('the point evaluation precompile (0x0a) verifies real KZG proofs', () => {
  let service: RunningService
  const evaluate = (data: string) => rpc(service.url, 'eth_call', [{ to: POINT_EVALUATION, data }, 'latest'])

  beforeAll(async () => {
    service = await startService({ port: 0, quiet: true, rateLimit: 0 })
  })
  afterAll(() => service?.close())

  test('the point at infinity opens the zero polynomial at any point to 0 (c-kzg vector)', async () => {
    const infinity = `0xc0${'00'.repeat(47)}`
    expect((await evaluate(input(infinity, 5n, 0n, infinity))).result).toBe(SUCCESS)
  })

  test('a proof for a blob with data succeeds, and the same proof for another value fails', async () => {
    const kzg = loadKzg()
    const blob = `0x${Array.from({ length: 4096 }, (_, i) => word(BigInt(i * i + 7))).join('')}`
    const commitment = kzg.blobToKzgCommitment(blob)
    const z = 0x1234n
    const [proof, y] = kzg.computeProof(blob, `0x${word(z)}`)
    expect((await evaluate(input(commitment, z, BigInt(y), proof))).result).toBe(SUCCESS)
    const wrong = await evaluate(input(commitment, z, BigInt(y) + 1n, proof))
    expect(wrong.result).toBeUndefined()
    expect(wrong.error).toBeDefined()
  }, 60_000)
})
