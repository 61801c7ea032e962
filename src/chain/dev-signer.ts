/** The embedded chain's DevAccounts: its genesis accounts, signing with the chain's Common. */
import type { Common } from '@ethereumjs/common'
import { createTx, type TypedTxData } from '@ethereumjs/tx'
import { bytesToHex } from '@ethereumjs/util'
import type { DevAccounts, FilledRequest } from '../capabilities/accounts.js'
import { authorizationListData } from '../domain/call-request.js'
import type { DevAccount } from '../domain/types.js'

export class EmbeddedDevAccounts implements DevAccounts {
  constructor(
    private readonly common: Common,
    readonly all: readonly DevAccount[],
  ) {}

  signTransaction(account: DevAccount, request: FilledRequest): Uint8Array {
    return createTx(toTxData(request), { common: this.common }).sign(account.privateKey).serialize()
  }
}

export function toTxData(r: FilledRequest): TypedTxData {
  return {
    type: r.type,
    chainId: r.chainId,
    nonce: r.nonce,
    gasLimit: r.gas,
    to: r.to,
    value: r.value ?? 0n,
    data: r.data ?? new Uint8Array(),
    ...(r.type < 2
      ? { gasPrice: r.gasPrice }
      : { maxFeePerGas: r.maxFeePerGas, maxPriorityFeePerGas: r.maxPriorityFeePerGas }),
    ...(r.type >= 1
      ? {
          accessList: (r.accessList ?? []).map((e) => ({
            address: bytesToHex(e.address),
            storageKeys: e.storageKeys.map(bytesToHex),
          })),
        }
      : {}),
    ...(r.type === 4 ? { authorizationList: authorizationListData(r.authorizationList ?? []) } : {}),
  } as TypedTxData
}
