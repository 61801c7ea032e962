import { getContractAddress } from 'viem'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { chainWithPrograms } from '../../../test/support/call-paths.js'
import { devAccount } from '../../../test/support/dev-keys.js'
import { ExecutionTimeoutError } from '../../errors.js'
import type { Chain } from '../chain.js'
import { CallEvms } from './fast-call.js'

/** JUMPDEST, PUSH1 0, JUMP: runs until its gas is gone. */
const LOOP = '5b600056'
/** CALL(gas, loop, 0, 0, 0, 0, 0) and STOP: the loop one frame down. */
const callInto = (to: Uint8Array) => `600080808080 73${Buffer.from(to).toString('hex')} 5a f1 00`.replaceAll(' ', '')

let chain: Chain
let contracts: Record<'loop' | 'caller' | 'stop', Uint8Array>

beforeAll(async () => {
  // the loop is dev account 0's first deployment, so the caller can name it before it exists
  const loop = Uint8Array.from(Buffer.from(getContractAddress({ from: devAccount.address, nonce: 0n }).slice(2), 'hex'))
  ;({ chain, contracts } = await chainWithPrograms({ loop: LOOP, caller: callInto(loop), stop: '00' }))
  expect(contracts.loop).toEqual(loop)
})

afterAll(() => chain.stop())

const runOn = (evms: CallEvms, to: Uint8Array) => {
  const header = chain.store.latest().header
  return evms.run(chain.readerAt(header.stateRoot), header, { to }, 16_000_000n)
}

test('a call past its time budget stops with geth’s timeout error, one frame down too, and its EVM takes the next call', async () => {
  const evms = new CallEvms(chain.vm, 50)
  // run to its end, the loop would answer "out of gas"; stopped, it rejects
  await expect(runOn(evms, contracts.loop)).rejects.toThrow(ExecutionTimeoutError)
  await expect(runOn(evms, contracts.caller)).rejects.toThrow('execution aborted (timeout = 0.05s)')
  const next = await runOn(evms, contracts.stop)
  expect(next?.execResult.exceptionError).toBeUndefined()
})

test('the event loop turns while a long call runs: timers fire before it ends', async () => {
  let fired = 0
  const timer = setInterval(() => fired++, 1)
  const result = await runOn(new CallEvms(chain.vm), contracts.loop)
  clearInterval(timer)
  expect(result?.execResult.exceptionError?.error).toBe('out of gas')
  expect(fired).toBeGreaterThan(0)
})
