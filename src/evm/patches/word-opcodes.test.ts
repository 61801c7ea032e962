import { afterAll, beforeAll, test } from 'vitest'
import { chainWithPrograms, expectBothPathsAgree, words } from '../../../test/support/call-paths.js'

/**
 * Programs over three calldata words a, b, c (PUSH0 CALLDATALOAD is a, PUSH1 32 CALLDATALOAD b, PUSH1 64
 * CALLDATALOAD c) that return what the opcode made of them, so a wrong byte or bit shows in the output.
 */
const PROGRAMS = {
  'MSTORE a at b, MLOAD at b': '5f3560203552602035515f5260205ff3',
  'MSTORE a at b, the 64 bytes from b': '5f35602035526040602035f3',
  'CALLDATALOAD at c': '604035355f5260205ff3',
  'KECCAK256 of b bytes of the calldata from c': '365f5f37602035604035205f5260205ff3',
  'SSTORE a at slot b, SLOAD slot b': '5f356020355560203554' + '5f5260205ff3',
}
const A = [0n, 1n, 0xffn, (1n << 64n) - 1n, 1n << 64n, (1n << 128n) + 5n, 1n << 255n, (1n << 256n) - 1n]
const B = [0n, 1n, 31n, 32n, 33n, 95n]
const C = [0n, 1n, 31n, 60n, 95n, 96n, 200n, 1n << 64n]

let setup: Awaited<ReturnType<typeof chainWithPrograms<keyof typeof PROGRAMS>>>

beforeAll(async () => {
  setup = await chainWithPrograms(PROGRAMS)
})

afterAll(() => setup.chain.stop())

test.each(Object.keys(PROGRAMS))('%s: the same output, gas and error on both call paths', async (name) => {
  const to = setup.contracts[name as keyof typeof PROGRAMS]
  for (const a of A)
    for (const b of B)
      for (const c of C)
        await expectBothPathsAgree(
          setup.chain,
          { to, data: words(a, b, c) },
          undefined,
          `${name}: a ${a} b ${b} c ${c}`,
        )
})
