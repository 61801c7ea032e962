/**
 * A real service whose chain only moves when a test says so (timers set to an hour; blocks come from
 * chain.buildNow / sealNow / mine), viem clients on both endpoints on the `preconf-rpc/client` chain, a wallet
 * signing locally as dev account 0 with fees given up front, and TestToken deploy and transfer helpers.
 */
import { createPublicClient, createWalletClient, http, type Hex, type PublicClient } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { chainConfig } from 'viem/op-stack'
import type { Config } from '../../src/config.js'
import type { Chain } from '../../src/chain/chain.js'
import { preconfRpcChain } from '../../src/client/chains.js'
import { startService, type RunningService } from '../../src/service.js'
import { DEV_KEY_0 } from './dev-keys.js'
import { testToken } from './fixtures.js'
import { rpc } from './rpc.js'

/** The chain `preconf-rpc/client` exports for a local instance (id 196); every client here names its URL. */
export const viemChain = preconfRpcChain()

/** A real service on a free port, no rate limit, an hour between flashblocks and blocks: its chain moves only when a test builds, seals or mines. */
export function startFrozenService(
  overrides: Partial<Config> & { upstream?: undefined } = {},
): Promise<RunningService> {
  return startService({
    port: 0,
    quiet: true,
    rateLimit: 0,
    blockTimeMs: HOUR,
    flashblockIntervalMs: HOUR,
    ...overrides,
  })
}

const HOUR = 3_600_000

/** The local chain with viem's OP Stack formatters and serializers (deposits, OP receipt fields). */
export const opStackChain = { ...viemChain, ...chainConfig }

export type Harness = Awaited<ReturnType<typeof startHarness>>

export async function startHarness() {
  // an hour between blocks: nothing happens unless the test builds or seals
  const service = await startFrozenService()
  const chain = service.chain as Chain
  const general = createPublicClient({ chain: viemChain, transport: http(service.url) }) as PublicClient
  const flash = createPublicClient({ chain: viemChain, transport: http(service.flashblocksUrl) }) as PublicClient
  const alice = privateKeyToAccount(DEV_KEY_0)
  const wallet = createWalletClient({ account: alice, chain: viemChain, transport: http(service.url) })
  const flashWallet = createWalletClient({ account: alice, chain: viemChain, transport: http(service.flashblocksUrl) })
  let nonce = 0
  /** Fee and gas fields given up front, so a send needs nothing but eth_chainId and eth_sendRawTransaction. */
  const fees = () => ({ nonce: nonce++, maxFeePerGas: 10n ** 10n, maxPriorityFeePerGas: 10n ** 9n })

  return {
    service,
    chain,
    general,
    flash,
    alice,
    wallet,
    flashWallet,
    fees,
    /** One flashblock with everything ready, then sealed. */
    mine: () => chain.mine(),
    /** Raw JSON-RPC call on an endpoint: the result, or the error object. */
    rpc: (endpoint: 'general' | 'flashblocks', method: string, params: unknown[]) =>
      rpc(endpoint === 'general' ? service.url : service.flashblocksUrl, method, params),
    deployToken: async (supply: bigint) => {
      const hash = await wallet.deployContract({
        abi: testToken.abi,
        bytecode: testToken.bytecode,
        args: [supply],
        gas: 2_000_000n,
        ...fees(),
      })
      const block = await chain.mine()
      const receipt = await general.getTransactionReceipt({ hash })
      return { hash, block, address: receipt.contractAddress! }
    },
    transferToken: async (token: Hex, to: Hex, amount: bigint, client = wallet) =>
      client.writeContract({
        address: token,
        abi: testToken.abi,
        functionName: 'transfer',
        args: [to, amount],
        gas: 100_000n,
        ...fees(),
      }),
    close: () => service.close(),
  }
}
