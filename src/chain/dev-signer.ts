/** The embedded chain's DevAccounts: its genesis accounts, signing with the chain's Common. */
import type { Common } from '@ethereumjs/common'
import { createTx } from '@ethereumjs/tx'
import type { DevAccounts } from '../capabilities/accounts.js'
import { type FilledRequest, toTxData } from '../domain/call-request.js'
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
