import { Common, Hardfork, Mainnet } from '@ethereumjs/common'
import { paramsTx } from '@ethereumjs/tx'
import { beforeAll, expect, test } from 'vitest'
import { installEvmPatches } from '../../patches/install.js'
import { fillCall, simulatedTx, simulationCommon } from './sim-tx.js'

beforeAll(() => installEvmPatches())

const EIP_7825_CAP = 16_777_216n

test('a simulated call may use more gas than EIP-7825 lets a transaction, and the chain’s Commons keep the cap', () => {
  const chain = new Common({ chain: Mainnet, hardfork: Hardfork.Osaka, params: paramsTx })
  expect(chain.param('maxTransactionGasLimit')).toBe(EIP_7825_CAP)
  const gas = EIP_7825_CAP * 4n
  const call = fillCall({ from: new Uint8Array(20).fill(1), to: new Uint8Array(20).fill(2) }, 0n, gas, chain)
  for (let i = 0; i < 2; i++) expect(simulatedTx(call, simulationCommon(chain)).tx.gasLimit).toBe(gas)

  // a Common of the chain whose params cache is built after the simulation (a fork change does it) still caps
  const later = chain.copy()
  later.setHardfork(Hardfork.Prague)
  later.setHardfork(Hardfork.Osaka)
  expect(later.param('maxTransactionGasLimit')).toBe(EIP_7825_CAP)
})
