/**
 * The dev accounts every preconf-rpc (and anvil) instance funds at genesis from the default mnemonic, written
 * out as anvil prints them so a test checks our derivation against known keys rather than against itself.
 */
import type { Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'

/** anvil's dev keys 0, 1 and 2 ("test test ... junk"). */
export const DEV_KEYS = [
  '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
  '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d',
  '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a',
] as const satisfies readonly Hex[]

export const [DEV_KEY_0, DEV_KEY_1, DEV_KEY_2] = DEV_KEYS

/** Dev account 0 as a local (signing) viem account: the one that deploys fixtures. */
export const devAccount = privateKeyToAccount(DEV_KEY_0)

/** Dev accounts 1 and 2 by address, lower case as the service answers them. */
export const BOB: Hex = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8'
export const CAROL: Hex = '0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc'

/**
 * Dev account 1 (or the account of `key`) sends 1 wei to BOB (EIP-1559, chain 196): the signed bytes, for a test
 * that needs a plain transfer.
 */
export function signTransferToBob(nonce = 0, key: Hex = DEV_KEY_1): Promise<Hex> {
  return privateKeyToAccount(key).signTransaction({
    chainId: 196,
    type: 'eip1559',
    to: BOB,
    value: 1n,
    gas: 21_000n,
    nonce,
    maxFeePerGas: 10n ** 10n,
    maxPriorityFeePerGas: 10n ** 9n,
  })
}
