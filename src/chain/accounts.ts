/**
 * Dev accounts from a BIP-39 mnemonic on the path m/44'/60'/0'/0/i, the same accounts anvil and Hardhat
 * derive (index 0 of the test mnemonic is 0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266).
 */
import { createAddressFromPrivateKey } from '@ethereumjs/util'
import { HDKey } from '@scure/bip32'
import { mnemonicToSeedSync } from '@scure/bip39'
import type { DevAccount } from '../domain/types.js'

export function deriveDevAccounts(mnemonic: string, count: number): DevAccount[] {
  const root = HDKey.fromMasterSeed(mnemonicToSeedSync(mnemonic))
  return Array.from({ length: count }, (_, i) => {
    const privateKey = root.derive(`m/44'/60'/0'/0/${i}`).privateKey
    if (!privateKey) throw new Error(`cannot derive dev account ${i}`)
    return { address: createAddressFromPrivateKey(privateKey).bytes, privateKey }
  })
}
