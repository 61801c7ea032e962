import { verifyMerkleProof } from '@ethereumjs/mpt'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { type Hex, fromRlp, hexToBigInt, hexToBytes, keccak256, pad, toHex } from 'viem'
import { BOB } from '../support/dev-keys.js'
import { type Harness, startHarness } from '../support/harness.js'

type Proof = {
  address: Hex
  accountProof: Hex[]
  balance: Hex
  codeHash: Hex
  nonce: Hex
  storageHash: Hex
  storageProof: { key: Hex; value: Hex; proof: Hex[] }[]
}

/** The value a proof proves under a key, or null when it proves absence; throws when the proof is broken. */
async function proven(key: Hex, proof: Hex[]): Promise<Uint8Array | null> {
  return verifyMerkleProof(
    hexToBytes(key),
    proof.map((node) => hexToBytes(node)),
    { useKeyHashing: true },
  )
}

describe('eth_getProof and eth_getStorageValues', () => {
  let h: Harness
  let token: Hex

  beforeAll(async () => {
    h = await startHarness()
    token = (await h.deployToken(1000n)).address
    await h.transferToken(token, BOB, 7n)
    await h.mine()
  })
  afterAll(() => h?.close())

  const call = async <T>(endpoint: 'general' | 'flashblocks', method: string, params: unknown[]) => {
    const reply = await h.rpc(endpoint, method, params)
    expect(reply.error).toBeUndefined()
    return reply.result as T
  }

  test('the account and its slots are proved against the block’s state root', async () => {
    const block = await h.general.getBlock()
    const slots: Hex[] = ['0x0', '0x1', '0x2', pad('0x3')]
    const proof = await call<Proof>('general', 'eth_getProof', [token, slots, 'latest'])
    expect(keccak256(proof.accountProof[0]!)).toBe(block.stateRoot)
    const account = await proven(token, proof.accountProof)
    const [nonce, balance, storageRoot, codeHash] = fromRlp(account!, 'hex') as Hex[]
    expect([nonce, balance, storageRoot, codeHash]).toEqual(['0x01', '0x', proof.storageHash, proof.codeHash])
    expect(proof.nonce).toBe('0x1')
    expect(proof.codeHash).toBe(keccak256((await h.general.getCode({ address: token }))!))
    expect(proof.storageProof.map((s) => s.key)).toEqual(['0x0', '0x1', '0x2', pad('0x3')])
    const words = await call<Record<string, Hex[]>>('general', 'eth_getStorageValues', [{ [token]: slots }])
    for (const [i, { value, proof: nodes }] of proof.storageProof.entries()) {
      expect(hexToBigInt(words[token.toLowerCase()]![i]!)).toBe(hexToBigInt(value))
      const stored = await proven(pad(slots[i]!), nodes)
      expect(stored ? hexToBigInt(fromRlp(stored, 'hex') as Hex) : 0n).toBe(hexToBigInt(value))
    }
    expect(proof.storageProof.some((s) => s.value !== '0x0')).toBe(true)
  })

  test('on /flashblocks `pending` proves the newest flashblock’s state', async () => {
    await h.wallet.sendTransaction({ to: BOB, value: 5n, gas: 21_000n, ...h.fees() })
    await h.chain.buildNow()
    const pending = await h.flash.getBlock({ blockTag: 'pending' })
    const proof = await call<Proof>('flashblocks', 'eth_getProof', [BOB, [], 'pending'])
    expect(keccak256(proof.accountProof[0]!)).toBe(pending.stateRoot)
    expect(hexToBigInt(proof.balance)).toBe(await h.flash.getBalance({ address: BOB, blockTag: 'pending' }))
    const general = await call<Proof>('general', 'eth_getProof', [BOB, [], 'pending'])
    expect(hexToBigInt(general.balance)).toBe(hexToBigInt(proof.balance) - 5n)
    await h.chain.sealNow()
  })

  test('on /flashblocks `pending` proves a slot the newest flashblock wrote against that flashblock’s state root', async () => {
    // BOB's balance slot in the token's mapping: the one of the first slots that holds the 7 he was sent
    const slotOf = (index: number) => keccak256(`${pad(BOB)}${pad(toHex(index)).slice(2)}` as Hex)
    const balances: Hex[] = []
    for (let index = 0; index < 8; index++) {
      const word = await call<Hex>('general', 'eth_getStorageAt', [token, slotOf(index), 'latest'])
      if (hexToBigInt(word) === 7n) balances.push(slotOf(index))
    }
    expect(balances).toHaveLength(1)
    await h.transferToken(token, BOB, 3n)
    await h.chain.buildNow()
    const pending = await h.flash.getBlock({ blockTag: 'pending' })
    const proof = await call<Proof>('flashblocks', 'eth_getProof', [token, balances, 'pending'])
    expect(keccak256(proof.accountProof[0]!)).toBe(pending.stateRoot)
    const [, , storageRoot] = fromRlp((await proven(token, proof.accountProof))!, 'hex') as Hex[]
    expect(storageRoot).toBe(proof.storageHash)
    expect(keccak256(proof.storageProof[0]!.proof[0]!)).toBe(proof.storageHash)
    const stored = await proven(balances[0]!, proof.storageProof[0]!.proof)
    expect(hexToBigInt(fromRlp(stored!, 'hex') as Hex)).toBe(10n)
    await h.chain.sealNow()
  })

  test('an account that does not exist is proved absent, with zero hashes and empty slot proofs as geth', async () => {
    const nobody = '0x00000000000000000000000000000000000c0ffe'
    const proof = await call<Proof>('general', 'eth_getProof', [nobody, ['0x1'], 'latest'])
    expect(await proven(nobody, proof.accountProof)).toBeNull()
    expect(proof).toMatchObject({
      balance: '0x0',
      nonce: '0x0',
      codeHash: pad('0x0'),
      storageHash: pad('0x0'),
      storageProof: [{ key: '0x1', value: '0x0', proof: [] }],
    })
  })

  test('eth_getStorageValues keys answers by lower-case address and reads at the given block', async () => {
    const deployBlock = toHex((await h.general.getBlockNumber()) - 2n)
    const values = await call<Record<string, Hex[]>>('general', 'eth_getStorageValues', [
      { [BOB]: ['0x0'], [token]: ['0x0'] },
      deployBlock,
    ])
    expect(Object.keys(values).sort()).toEqual([BOB.toLowerCase(), token.toLowerCase()].sort())
    expect(values[BOB.toLowerCase()]).toEqual([pad('0x0')])
  })

  test('eth_getStorageValues refuses an empty request and more than 1024 slots with -32602', async () => {
    for (const requests of [{}, { [BOB]: [] }])
      expect((await h.rpc('general', 'eth_getStorageValues', [requests, 'latest'])).error).toEqual({
        code: -32602,
        message: 'empty request',
      })
    const many = Array.from({ length: 1025 }, (_, i) => toHex(i))
    expect((await h.rpc('general', 'eth_getStorageValues', [{ [BOB]: many }])).error).toEqual({
      code: -32602,
      message: 'too many slots (max 1024)',
    })
  })
})
