/**
 * Dev accounts from a BIP-39 mnemonic on the path m/44'/60'/0'/0/i, the same accounts anvil and Hardhat
 * derive (index 0 of the test mnemonic is 0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266).
 */
import { pbkdf2Sync } from 'node:crypto'
import { createAddressFromPrivateKey } from '@ethereumjs/util'
import { HDKey } from '@scure/bip32'
import type { DevAccount } from '../domain/types.js'

/**
 * BIP-39's seed (PBKDF2-HMAC-SHA512, 2 048 rounds, salt "mnemonic", no passphrase) by Node's own PBKDF2,
 * ~3 ms where @scure/bip39's JavaScript one takes ~25: every chain a process makes derives its accounts.
 */
function seedOf(mnemonic: string): Uint8Array {
  return pbkdf2Sync(mnemonic.normalize('NFKD'), 'mnemonic', 2048, 64, 'sha512')
}

export function deriveDevAccounts(mnemonic: string, count: number): DevAccount[] {
  // the common parent once, then one step per account (not five from the root each)
  const parent = HDKey.fromMasterSeed(seedOf(mnemonic)).derive("m/44'/60'/0'/0")
  return Array.from({ length: count }, (_, i) => {
    const privateKey = parent.deriveChild(i).privateKey
    if (!privateKey) throw new Error(`cannot derive dev account ${i}`)
    return { address: createAddressFromPrivateKey(privateKey).bytes, privateKey }
  })
}
