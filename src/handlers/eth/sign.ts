import { secp256k1 } from '@noble/curves/secp256k1.js'
import { hashPersonalMessage } from '@ethereumjs/util'
import { data, parseData } from '../../format/hex.js'
import { unlockedAccount } from '../dev-accounts.js'
import type { Handler } from '../context.js'

/**
 * eth_sign [address, message]: an EIP-191 personal signature (keccak of "\x19Ethereum Signed Message:\n" +
 * length + message) by an unlocked dev account, as r || s || v with v = 27/28 like geth.
 */
export const eth_sign: Handler<'eth_sign'> = ([address, message], ctx) => {
  const account = unlockedAccount(ctx, address)
  // 'recovered' puts the recovery bit first
  const sig = secp256k1.sign(hashPersonalMessage(parseData(message)), account.privateKey, {
    prehash: false,
    format: 'recovered',
  })
  const out = new Uint8Array(65)
  out.set(sig.subarray(1), 0)
  out[64] = sig[0]! + 27
  return data(out)
}
