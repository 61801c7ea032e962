/**
 * Signs transactions for an embedded chain's dev accounts with viem, an independent signer, so the chain's
 * own tests check admission and execution against real client bytes rather than bytes it made itself.
 */
import { bytesToHex, hexToBytes } from '@ethereumjs/util'
import { privateKeyToAccount } from 'viem/accounts'
import type { Chain } from '../../src/chain/chain.js'

export interface TxFields {
  to?: Uint8Array | null
  value?: bigint
  nonce: number
  gas?: bigint
  data?: Uint8Array
  maxFeePerGas?: bigint
  maxPriorityFeePerGas?: bigint
  gasPrice?: bigint
  type?: 'eip1559' | 'legacy' | 'eip2930'
  chainId?: number
}

/** Signs a transaction from dev account `from` and returns its raw bytes. */
export async function signTx(chain: Chain, from: number, fields: TxFields): Promise<Uint8Array> {
  const account = privateKeyToAccount(bytesToHex(chain.accounts[from].privateKey) as `0x${string}`)
  const to =
    fields.to === null
      ? undefined
      : (bytesToHex(fields.to ?? chain.accounts[(from + 1) % chain.accounts.length].address) as `0x${string}`)
  const common = {
    chainId: fields.chainId ?? Number(chain.chainId),
    nonce: fields.nonce,
    to,
    value: fields.value ?? 0n,
    gas: fields.gas ?? 21_000n,
    data: fields.data ? (bytesToHex(fields.data) as `0x${string}`) : undefined,
  }
  const type = fields.type ?? 'eip1559'
  const signed =
    type === 'eip1559'
      ? await account.signTransaction({
          ...common,
          type,
          maxFeePerGas: fields.maxFeePerGas ?? 10n ** 10n,
          maxPriorityFeePerGas: fields.maxPriorityFeePerGas ?? 10n ** 9n,
        })
      : await account.signTransaction({ ...common, type, gasPrice: fields.gasPrice ?? 10n ** 10n })
  return hexToBytes(signed)
}
