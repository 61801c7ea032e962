/**
 * EIP-7610 on upstream-backed state: a creation onto an account that has storage but no nonce or code
 * fails (geth checks `GetStorageRoot`, @ethereumjs `toAccount.storageRoot`). JSON-RPC value reads cannot
 * show whether an account has storage, so before each creation message the EVM sends, its target's
 * storage root is loaded from the upstream (UpstreamStateManager.prepareCreation: eth_getProof, only when
 * nonce and code leave the answer open). Calls, and creations where nonce or code decide, cost nothing.
 */
import type { EVM, Message } from '@ethereumjs/evm'
import { Address, bigIntToBytes, generateAddress, generateAddress2 } from '@ethereumjs/util'
import { onCreationMessages } from '../evm/patches/interpreted-frames.js'
import { UpstreamStateManager } from './upstream-state.js'

/**
 * Has `evm` (over an UpstreamStateManager) load a creation target's storage root before its collision
 * check. A failed load fails that read: the creation's getAccount rejects as any upstream read does.
 */
export function answerCreationCollisions(evm: EVM): void {
  // two parameters: the EVM awaits the listener before it goes on with the message
  // creations only: the EVM interpreter's frames, which emit no events, hand those back (interpreted-frames.ts)
  const onMessage = onCreationMessages((message: Message, resolve?: (result?: unknown) => void) => {
    const state = evm.stateManager
    if (message.to !== undefined || !(state instanceof UpstreamStateManager)) return resolve?.()
    creationTarget(state, message)
      .then((target) => target && state.prepareCreation(target))
      .catch((err: Error) => state.failCreation(err))
      .finally(() => resolve?.())
  })
  evm.events!.on('beforeMessage', onMessage)
}

/**
 * The address the creation will take, as the EVM's _generateAddress makes it: CREATE2 from the salt and
 * init code, CREATE from the caller's nonce before the increment the EVM has already written.
 */
async function creationTarget(state: UpstreamStateManager, message: Message): Promise<Address | undefined> {
  if (message.salt) return new Address(generateAddress2(message.caller.bytes, message.salt, message.data))
  const nonce = (await state.getAccount(message.caller))?.nonce ?? 0n
  if (nonce === 0n) return undefined
  return new Address(generateAddress(message.caller.bytes, bigIntToBytes(nonce - 1n)))
}
