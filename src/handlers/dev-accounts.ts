/**
 * The unlocked dev accounts behind eth_sendTransaction and the signing methods. Any other address — or every
 * address with --no-dev-accounts — answers geth's `unknown account`, as geth without that key unlocked.
 * Signatures are geth's 65 bytes r || s || v (v 27/28), deterministic (RFC 6979, no extra entropy), so a test
 * can compare them with what viem or ethers make with the same key.
 */
import { bytesToHex, hashPersonalMessage } from '@ethereumjs/util'
import { secp256k1 } from '@noble/curves/secp256k1.js'
import type { signTyped } from 'micro-eth-signer'
import type { Bytes } from '../../generated/types.js'
import type { CallRequest } from '../domain/call-request.js'
import type { DevAccount } from '../domain/types.js'
import { InvalidParamsError, UnknownAccountError } from '../errors.js'
import { data, parseData } from '../format/hex.js'
import { keyOf } from '../domain/block-record.js'
import { microEthSigner } from '../load-on-use.js'
import type { HandlerContext } from './context.js'
import { fillDefaults } from './fill-defaults.js'

export function unlockedAccount(ctx: HandlerContext, address: string): DevAccount {
  const key = keyOf(parseData(address))
  const account = ctx.config.devAccounts ? ctx.accounts.all.find((a) => keyOf(a.address) === key) : undefined
  if (!account) throw new UnknownAccountError()
  return account
}

/**
 * What eth_sendTransaction and eth_signTransaction sign: the request filled as geth fills it (fill-defaults.ts)
 * and signed by the dev account in `from` (a request without one asks for the zero address, which no one holds).
 */
export async function signRequest(ctx: HandlerContext, request: CallRequest): Promise<Uint8Array> {
  const account = unlockedAccount(ctx, bytesToHex(request.from ?? ZERO_ADDRESS))
  const filled = await fillDefaults(ctx, request, account.address)
  return ctx.accounts.signTransaction(account, filled)
}

const ZERO_ADDRESS = new Uint8Array(20)

/** EIP-191: the signature of keccak-256("\x19Ethereum Signed Message:\n" + length + message). */
export function personalSignature(account: DevAccount, message: string): Bytes {
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

type TypedData = Parameters<typeof signTyped>[0]

/**
 * EIP-712: the signature of keccak-256(0x1901 || domain separator || struct hash). The typed data comes as an
 * object or its JSON text; what does not encode is the caller's mistake, -32602 with the library's reason.
 */
export function typedDataSignature(account: DevAccount, typedData: unknown, argument: string): Bytes {
  let typed: unknown = typedData
  if (typeof typedData === 'string') {
    try {
      typed = JSON.parse(typedData)
    } catch {
      throw new InvalidParamsError(`invalid argument ${argument}: typed data is not valid JSON`)
    }
  }
  try {
    return microEthSigner().signTyped(typed as TypedData, account.privateKey, false) as Bytes
  } catch (error) {
    throw new InvalidParamsError(`invalid argument ${argument}: ${(error as Error).message}`)
  }
}
