/**
 * A state override that names a precompile's account (a balance, a nonce, empty storage or empty code, as
 * state tests and state dumps list the precompiles) leaves the precompile answering, on every path that takes
 * overrides: eth_call and eth_simulateV1, on the embedded chain and on a follower (anvil upstream), each
 * answering as anvil does. Every Prague precompile, 0x01 to 0x11, is called through a contract's STATICCALL.
 */
import type { Hex } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { type RunningFollower, type RunningService, startService } from '../../src/service.js'
import { type RunningAnvil, startAnvil } from '../support/anvil.js'
import { rpc } from '../support/rpc.js'

/**
 * STATICCALLs the address in calldata word 0 with the rest of the calldata, all gas; returns the call's
 * success as a word, then its return data.
 */
const CALLER_CODE: Hex = '0x600060006020360380602060003760006000355afa6000523d600060203e3d6020016000f3'
const CALLER: Hex = '0x00000000000000000000000000000000c0ffee00'

const word = (hex: string) => hex.padStart(64, '0')
/** A 48-byte field element as EIP-2537 encodes it: 64 bytes. */
const fp = (hex: string) => hex.padStart(128, '0')
const G1 =
  fp('17f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb') +
  fp('08b3f481e3aaa0f1a09e30ed741d8ae4fcf5e095d5d00af600db18cb2c04b3edd03cc744a2888ae40caa232946c5e7e1')
const G1_INFINITY = '00'.repeat(128)
const G2_INFINITY = '00'.repeat(256)
const ZERO_COMMITMENT = `c0${'00'.repeat(47)}`

/** An input each precompile answers with output (a valid one where validity is checked). */
const INPUTS: Record<string, string> = {
  // ecrecover: the execution-apis case whose signer is 0xb11cad98...
  '01':
    '1c8aff950685c2ed4bc3174f3472287b56d9517b9c948127319a09a7a36deac8' +
    word('1c') +
    'b7cf302145348387b9e69fde82d8e634a0f8761e78da3bfa059efced97cbed0d2a66b69167cafe0ccfc726aec6ee393fea3cf0e4f3f9c394705e0f56d9bfe1c9',
  '02': '616263',
  '03': '616263',
  '04': '1234',
  // modexp: 3^2 mod 5
  '05': `${word('1')}${word('1')}${word('1')}030205`,
  // alt_bn128 add (1,2)+(1,2), mul (1,2)*2, pairing of nothing
  '06': word('1') + word('2') + word('1') + word('2'),
  '07': word('1') + word('2') + word('2'),
  '08': '',
  // blake2f: 12 rounds of zeros, final block
  '09': `0000000c${'00'.repeat(208)}01`,
  // point evaluation: the zero polynomial's commitment opens to 0 at 0
  '0a': `010657f37554c781402a22917dee2f75def7ab966d7b770905398eba3c444014${word('0')}${word('0')}${ZERO_COMMITMENT}${ZERO_COMMITMENT}`,
  // BLS12-381: G1 + infinity, G1 * 1, infinity + infinity in G2, G2 infinity * 1, e(inf, inf) = 1, maps of 0
  '0b': G1 + G1_INFINITY,
  '0c': G1 + word('1'),
  '0d': G2_INFINITY + G2_INFINITY,
  '0e': G2_INFINITY + word('1'),
  '0f': G1_INFINITY + G2_INFINITY,
  '10': '00'.repeat(64),
  '11': '00'.repeat(128),
}

const precompile = (id: string): Hex => `0x${id.padStart(40, '0')}`
const callData = (id: string): Hex => `0x${word(id)}${INPUTS[id]}`

/** What state tests give every precompile: balance 1, empty code, no storage (and here a nonce too). */
const accountOf = (id: string) => ({
  [CALLER]: { code: CALLER_CODE },
  [precompile(id)]: { balance: '0x1', nonce: '0x1', code: '0x', state: {} },
})

async function ethCall(url: string, id: string, overridePrecompile: boolean): Promise<unknown> {
  const overrides = overridePrecompile ? accountOf(id) : { [CALLER]: { code: CALLER_CODE } }
  const reply = await rpc(url, 'eth_call', [{ to: CALLER, data: callData(id), gas: '0x1000000' }, 'latest', overrides])
  return reply.error ?? reply.result
}

async function simulate(url: string, id: string, overridePrecompile: boolean): Promise<unknown> {
  const stateOverrides = overridePrecompile ? accountOf(id) : { [CALLER]: { code: CALLER_CODE } }
  const reply = await rpc(url, 'eth_simulateV1', [
    { blockStateCalls: [{ stateOverrides, calls: [{ to: CALLER, input: callData(id), gas: '0x1000000' }] }] },
    'latest',
  ])
  if (reply.error) return reply.error
  const [{ returnData, status, gasUsed }] = (
    reply.result as { calls: { returnData: Hex; status: Hex; gasUsed: Hex }[] }[]
  )[0].calls
  return { returnData, status, gasUsed }
}

let anvil: RunningAnvil
let embedded: RunningService | RunningFollower
let follower: RunningService | RunningFollower

beforeAll(async () => {
  anvil = await startAnvil()
  embedded = await startService({ port: 0, quiet: true, rateLimit: 0 })
  follower = await startService({ port: 0, quiet: true, rateLimit: 0, upstream: anvil.url })
  // the first point evaluation loads the KZG trusted setup (seconds): not inside a test's time
  await ethCall(embedded.url, '0a', false)
  await ethCall(follower.url, '0a', false)
}, 120_000)
afterAll(async () => {
  await follower?.close()
  await embedded?.close()
  anvil?.close()
})

describe('a state override of a precompile account', () => {
  test.each(Object.keys(INPUTS))(
    'leaves precompile 0x%s answering eth_call as without it, as anvil does',
    async (id) => {
      const plain = await ethCall(embedded.url, id, false)
      // the precompile answered: success, then its output
      expect(plain).toMatch(new RegExp(`^0x${word('1')}[0-9a-f]{2,}$`))
      expect(await ethCall(embedded.url, id, true)).toBe(plain)
      expect(await ethCall(follower.url, id, true)).toBe(plain)
      expect(await ethCall(anvil.url, id, true)).toBe(plain)
    },
  )

  test.each(Object.keys(INPUTS))('leaves precompile 0x%s answering eth_simulateV1 as without it', async (id) => {
    const plain = (await simulate(embedded.url, id, false)) as { returnData: Hex; status: Hex }
    expect(plain.status).toBe('0x1')
    expect(plain.returnData).toBe(await ethCall(embedded.url, id, false))
    expect(await simulate(embedded.url, id, true)).toEqual(plain)
    expect(await simulate(follower.url, id, true)).toEqual(plain)
  })

  test('still lets code given to a precompile address run in its place, and a moved precompile leave it', async () => {
    // returns 0x2a as a word
    const code = '0x602a60005260206000f3'
    const given = await rpc(embedded.url, 'eth_call', [
      { to: precompile('02'), data: '0x616263' },
      'latest',
      {
        [precompile('02')]: { code },
      },
    ])
    expect(given.result).toBe(`0x${word('2a')}`)
    const moved = await rpc(embedded.url, 'eth_call', [
      { to: precompile('02'), data: '0x616263' },
      'latest',
      {
        [precompile('02')]: { balance: '0x1', movePrecompileToAddress: CALLER },
      },
    ])
    expect(moved.result).toBe('0x')
  })
})
