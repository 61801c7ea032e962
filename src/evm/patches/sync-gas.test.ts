import { afterAll, beforeAll, test } from 'vitest'
import { chainWithPrograms, expectBothPathsAgree, words } from '../../../test/support/call-paths.js'

/**
 * Programs of one memory opcode each, with the offset (word 0 of the calldata) and the length (word 1) from
 * the call: PUSH1 32 CALLDATALOAD is the length, PUSH0 CALLDATALOAD the offset.
 */
const PROGRAMS = {
  MSTORE: '602a5f355200', // MSTORE(offset, 42)
  MSTORE8: '602a5f355300',
  MLOAD: '5f35515000',
  KECCAK256: '6020355f35205000', // KECCAK256(offset, length)
  CALLDATACOPY: '6020355f5f353700', // CALLDATACOPY(offset, 0, length)
  CODECOPY: '6020355f5f353900',
  RETURN: '6020355f35f3',
  REVERT: '6020355f35fd',
}
const OFFSETS = [0n, 1n, 31n, 33n, 4_000n, 1n << 20n, 1n << 32n, 1n << 255n]
const LENGTHS = [0n, 1n, 32n, 65n, 5_000n, 1n << 22n]
// a limit just above the intrinsic gas and EIP-7623 floor of 64 bytes of calldata, a small one, the default cap
const GAS = [22_700n, 60_000n, 30_000_000n]

let setup: Awaited<ReturnType<typeof chainWithPrograms<keyof typeof PROGRAMS>>>

beforeAll(async () => {
  setup = await chainWithPrograms(PROGRAMS)
})

afterAll(() => setup.chain.stop())

test.each(Object.keys(PROGRAMS))(
  '%s charges memory and words as the shipped gas handler does, at every offset, length and gas limit',
  async (name) => {
    const to = setup.contracts[name as keyof typeof PROGRAMS]
    for (const offset of OFFSETS)
      for (const length of LENGTHS)
        for (const gas of GAS) {
          const what = `${name} offset ${offset} length ${length} gas ${gas}`
          await expectBothPathsAgree(setup.chain, { to, data: words(offset, length) }, gas, what)
        }
  },
)
