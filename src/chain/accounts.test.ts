import { bytesToHex, createAddressFromPrivateKey } from '@ethereumjs/util'
import { HDKey } from '@scure/bip32'
import { generateMnemonic, mnemonicToSeedSync } from '@scure/bip39'
import { wordlist } from '@scure/bip39/wordlists/english.js'
import { expect, test } from 'vitest'
import { BOB, DEV_KEYS } from '../../test/support/dev-keys.js'
import { DEFAULT_MNEMONIC } from '../config.js'
import { deriveDevAccounts } from './accounts.js'

test("the default mnemonic gives anvil's dev keys", () => {
  const keys = deriveDevAccounts(DEFAULT_MNEMONIC, DEV_KEYS.length).map((a) => bytesToHex(a.privateKey))
  expect(keys).toEqual([...DEV_KEYS])
  expect(bytesToHex(deriveDevAccounts(DEFAULT_MNEMONIC, 2)[1]!.address)).toBe(BOB)
})

test('any mnemonic gives the keys BIP-39 and BIP-32 derive from the root at m/44h/60h/0h/0/i', () => {
  for (const mnemonic of [generateMnemonic(wordlist), generateMnemonic(wordlist, 256)]) {
    const root = HDKey.fromMasterSeed(mnemonicToSeedSync(mnemonic))
    const expected = [0, 1, 7].map((i) => bytesToHex(root.derive(`m/44'/60'/0'/0/${i}`).privateKey!))
    const accounts = deriveDevAccounts(mnemonic, 8)
    expect([0, 1, 7].map((i) => bytesToHex(accounts[i]!.privateKey))).toEqual(expected)
    for (const { address, privateKey } of accounts)
      expect(bytesToHex(address)).toBe(createAddressFromPrivateKey(privateKey).toString())
  }
})
