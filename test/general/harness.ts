/**
 * A real service whose chain only moves when a test says so (timers set to an hour; blocks come from
 * chain.buildNow / sealNow), viem clients on both endpoints, and the TestToken fixture deployed by dev
 * account 0 signing locally.
 */
import { readFileSync } from 'node:fs'
import {
  type Abi, type Hex, createPublicClient, createWalletClient, defineChain, http, type PublicClient,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import type { Chain } from '../../src/chain/chain.js'
import { startService, type RunningService } from '../../src/service.js'

export const DEV_KEY_0: Hex = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80'
export const DEV_KEY_1: Hex = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d'
export const BOB: Hex = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8'
export const CAROL: Hex = '0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc'

const fixture = JSON.parse(readFileSync(new URL('../fixtures/TestToken.json', import.meta.url), 'utf8')) as {
  TestToken: { abi: Abi; bytecode: Hex }
}
export const tokenAbi = fixture.TestToken.abi
export const tokenBytecode = fixture.TestToken.bytecode
export const TRANSFER_TOPIC: Hex = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef'
export const APPROVAL_TOPIC: Hex = '0x8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b925'

export const xlayer = defineChain({
  id: 196,
  name: 'X Layer (local)',
  nativeCurrency: { name: 'OKB', symbol: 'OKB', decimals: 18 },
  rpcUrls: { default: { http: ['http://127.0.0.1:8545'] } },
})

export type Harness = Awaited<ReturnType<typeof startHarness>>

export async function startHarness() {
  // an hour between blocks: nothing happens unless the test builds or seals
  const service: RunningService = await startService({
    port: 0, quiet: true, rateLimit: 0, blockTimeMs: 3_600_000, flashblockIntervalMs: 3_600_000,
  })
  const chain = service.chain as Chain
  const general = createPublicClient({ chain: xlayer, transport: http(service.url) }) as PublicClient
  const flash = createPublicClient({ chain: xlayer, transport: http(service.flashblocksUrl) }) as PublicClient
  const alice = privateKeyToAccount(DEV_KEY_0)
  const wallet = createWalletClient({ account: alice, chain: xlayer, transport: http(service.url) })
  const flashWallet = createWalletClient({ account: alice, chain: xlayer, transport: http(service.flashblocksUrl) })
  let nonce = 0
  /** Fee and gas fields given up front, so a send needs nothing but eth_chainId and eth_sendRawTransaction. */
  const fees = () => ({ nonce: nonce++, maxFeePerGas: 10n ** 10n, maxPriorityFeePerGas: 10n ** 9n })

  return {
    service, chain, general, flash, alice, wallet, flashWallet, fees,
    /** One flashblock with everything ready, then sealed. */
    mine: () => chain.mine(),
    /** Raw JSON-RPC call on an endpoint: the result, or the error object. */
    rpc: (endpoint: 'general' | 'flashblocks', method: string, params: unknown[]) =>
      rawCall(endpoint === 'general' ? service.url : service.flashblocksUrl, method, params),
    deployToken: async (supply: bigint) => {
      const hash = await wallet.deployContract({ abi: tokenAbi, bytecode: tokenBytecode, args: [supply], gas: 2_000_000n, ...fees() })
      const block = await chain.mine()
      const receipt = await general.getTransactionReceipt({ hash })
      return { hash, block, address: receipt.contractAddress! }
    },
    transferToken: async (token: Hex, to: Hex, amount: bigint, client = wallet) =>
      client.writeContract({ address: token, abi: tokenAbi, functionName: 'transfer', args: [to, amount], gas: 100_000n, ...fees() }),
    close: () => service.close(),
  }
}

export type RpcReply = { result?: unknown; error?: { code: number; message: string; data?: unknown } }

export async function rawCall(url: string, method: string, params: unknown[]): Promise<RpcReply> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  })
  return (await res.json()) as RpcReply
}
