import {
  type Hex,
  FeeCapTooLowError,
  InsufficientFundsError,
  IntrinsicGasTooLowError,
  InvalidInputRpcError,
  NonceTooLowError,
  TipAboveFeeCapError,
  TransactionExecutionError,
  type BaseError,
  concatHex,
  createWalletClient,
  http,
  keccak256,
  parseEther,
  parseSignature,
  toHex,
  toRlp,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { BOB, DEV_KEY_1, DEV_KEY_2 } from '../support/dev-keys.js'
import { type Harness, startHarness, viemChain } from '../support/harness.js'

/**
 * Every rejection of the pool reaches viem's wallet client as the error class viem maps geth's text to
 * (viem's getNodeError regexes); texts viem has no class for surface as InvalidInputRpcError (-32000)
 * with geth's text as details.
 */
describe('pool rejections as viem errors', () => {
  let h: Harness
  const fees = { maxFeePerGas: 10n ** 10n, maxPriorityFeePerGas: 10n ** 9n }
  const bob = privateKeyToAccount(DEV_KEY_1)

  beforeAll(async () => {
    h = await startHarness()
  })
  afterAll(() => h?.close())

  /** The node error under viem's TransactionExecutionError, and the -32000 details it came with. */
  async function rejection(send: Promise<unknown>): Promise<BaseError> {
    const err = await send.then(
      () => undefined,
      (e: unknown) => e as BaseError,
    )
    expect(err).toBeInstanceOf(TransactionExecutionError)
    return err!.cause as BaseError
  }

  const nextNonce = (address: Hex) => h.general.getTransactionCount({ address, blockTag: 'pending' })

  test('a reused nonce reaches viem as NonceTooLowError with `nonce too low`', async () => {
    await h.wallet.sendTransaction({
      to: BOB,
      value: 1n,
      gas: 21_000n,
      nonce: await nextNonce(h.alice.address),
      ...fees,
    })
    await h.mine()
    const cause = await rejection(h.wallet.sendTransaction({ to: BOB, value: 1n, gas: 21_000n, nonce: 0, ...fees }))
    expect(cause).toBeInstanceOf(NonceTooLowError)
    expect(cause.details).toBe('nonce too low')
  })

  test('the same transaction sent twice reaches viem as NonceTooLowError with `already known`, where viem files it', async () => {
    const request = { to: BOB, value: 2n, gas: 21_000n, nonce: await nextNonce(h.alice.address), ...fees }
    await h.wallet.sendTransaction(request)
    const cause = await rejection(h.wallet.sendTransaction(request))
    expect(cause).toBeInstanceOf(NonceTooLowError)
    expect(cause.details).toBe('already known')
    await h.mine()
  })

  test('a sender who cannot pay reaches viem as InsufficientFundsError', async () => {
    const cause = await rejection(
      h.wallet.sendTransaction({ to: BOB, value: parseEther('20000'), gas: 21_000n, ...fees }),
    )
    expect(cause).toBeInstanceOf(InsufficientFundsError)
    expect(cause.details).toBe('insufficient funds for gas * price + value')
  })

  test('gas below the intrinsic cost reaches viem as IntrinsicGasTooLowError', async () => {
    const cause = await rejection(h.wallet.sendTransaction({ to: BOB, value: 1n, gas: 20_999n, ...fees }))
    expect(cause).toBeInstanceOf(IntrinsicGasTooLowError)
  })

  test('a max fee below the base fee reaches viem as FeeCapTooLowError', async () => {
    const cause = await rejection(
      h.wallet.sendTransaction({ to: BOB, value: 1n, gas: 21_000n, maxFeePerGas: 1n, maxPriorityFeePerGas: 1n }),
    )
    expect(cause).toBeInstanceOf(FeeCapTooLowError)
    expect(cause.details).toBe('max fee per gas less than block base fee')
  })

  test('a tip above the fee cap reaches viem as TipAboveFeeCapError', async () => {
    // viem and ethers refuse to sign such a transaction, so it is signed by hand and sent raw
    const raw = await signDynamicFee({ tip: 3n * 10n ** 9n, feeCap: 2n * 10n ** 9n })
    const reply = await h.rpc('general', 'eth_sendRawTransaction', [raw])
    expect(reply.error).toEqual({ code: -32000, message: 'max priority fee per gas higher than max fee per gas' })
    expect(TipAboveFeeCapError.nodeMessage.test(reply.error!.message)).toBe(true)
  })

  test("gas over the block limit reaches viem as InvalidInputRpcError with geth's `exceeds block gas limit`", async () => {
    const gas = h.service.config.gasLimit + 1n
    const cause = await rejection(h.wallet.sendTransaction({ to: BOB, value: 1n, gas, ...fees }))
    expect(cause).toBeInstanceOf(InvalidInputRpcError)
    expect(cause.details).toBe('exceeds block gas limit')
  })

  test("a replacement without the fee bump reaches viem as InvalidInputRpcError with geth's `replacement transaction underpriced`", async () => {
    const nonce = await nextNonce(bob.address)
    const wallet = createWalletClient({ account: bob, chain: viemChain, transport: http(h.service.url) })
    await wallet.sendTransaction({ to: BOB, value: 1n, gas: 21_000n, nonce, ...fees })
    const cause = await rejection(
      wallet.sendTransaction({
        to: BOB,
        value: 2n,
        gas: 21_000n,
        nonce,
        ...fees,
        maxPriorityFeePerGas: fees.maxPriorityFeePerGas + 1n,
      }),
    )
    expect(cause).toBeInstanceOf(InvalidInputRpcError)
    expect(cause.details).toBe('replacement transaction underpriced')
    await h.mine()
  })

  test('a transaction signed for another chain is refused with `invalid chain id`', async () => {
    const raw = await bob.signTransaction({ chainId: 1, to: BOB, gas: 21_000n, nonce: 0, ...fees })
    const err = await h.flashWallet
      .sendRawTransaction({ serializedTransaction: raw })
      .catch((e: unknown) => e as BaseError)
    expect(err).toBeInstanceOf(InvalidInputRpcError)
    expect((err as BaseError).details).toBe('invalid chain id')
  })

  test('a signature that recovers no sender is refused with `invalid sender`', async () => {
    const raw = await signDynamicFee({ tip: 10n ** 9n, feeCap: 10n ** 10n, r: '0x' }) // r = 0 is on no curve point
    const err = await h.flashWallet
      .sendRawTransaction({ serializedTransaction: raw })
      .catch((e: unknown) => e as BaseError)
    expect(err).toBeInstanceOf(InvalidInputRpcError)
    expect((err as BaseError).details).toBe('invalid sender')
  })

  test('a blob transaction is refused with `transaction type not supported`', async () => {
    const reply = await h.rpc('general', 'eth_sendRawTransaction', [`0x03${keccak256('0x').slice(2)}`])
    expect(reply.error).toEqual({ code: -32000, message: 'transaction type not supported' })
  })

  test('a sender past its pool budget is refused with `txpool is full`', async () => {
    const carol = privateKeyToAccount(DEV_KEY_2)
    const wallet = createWalletClient({ account: carol, chain: viemChain, transport: http(h.service.url) })
    // queued (future) nonces: they wait in the pool instead of being executed
    for (let i = 0; i < 64; i++)
      await wallet.sendTransaction({ to: BOB, value: 1n, gas: 21_000n, nonce: 100 + i, ...fees })
    const cause = await rejection(wallet.sendTransaction({ to: BOB, value: 1n, gas: 21_000n, nonce: 164, ...fees }))
    expect(cause).toBeInstanceOf(InvalidInputRpcError)
    expect(cause.details).toBe('txpool is full')
  })
})

/** A type-2 transfer from dev account 1, signed over raw fields (no client-side checks), optionally with r replaced. */
async function signDynamicFee({ tip, feeCap, r }: { tip: bigint; feeCap: bigint; r?: Hex }): Promise<Hex> {
  const fields = [toHex(196), '0x', toHex(tip), toHex(feeCap), toHex(21_000), BOB, '0x', '0x', []] as const
  const signature = await privateKeyToAccount(DEV_KEY_1).sign({
    hash: keccak256(concatHex(['0x02', toRlp(fields as never)])),
  })
  const { r: sigR, s, yParity } = parseSignature(signature)
  return concatHex(['0x02', toRlp([...fields, yParity ? '0x01' : '0x', r ?? sigR, s] as never)])
}
