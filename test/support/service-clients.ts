/**
 * viem clients for a running service (HTTP and WebSocket reads, a wallet signing locally as dev account 0) on
 * the chain users get from `preconf-rpc/client`, and the TestToken deployment the subscription and feed
 * tests start from.
 */
import { createPublicClient, createWalletClient, http, webSocket, type Chain, type Hex } from 'viem'
import { preconfRpcChain } from '../../src/client/chains.js'
import type { RunningService } from '../../src/service.js'
import { devAccount } from './dev-keys.js'
import { testToken } from './fixtures.js'
import { wsUrlOf } from '../../src/client/ws-url.js'

/** The viem chain `preconf-rpc/client` gives a user of this service (it reads `pending` by default). */
function chainOf(service: RunningService): Chain {
  return preconfRpcChain(service.url, service.config.network)
}

export function clientsFor(service: RunningService, endpointUrl = service.url) {
  const chain = chainOf(service)
  const publicHttp = createPublicClient({ chain, transport: http(endpointUrl) })
  const publicWs = createPublicClient({ chain, transport: webSocket(wsUrlOf(endpointUrl)) })
  const wallet = createWalletClient({ chain, account: devAccount, transport: http(endpointUrl) })
  return { chain, publicHttp, publicWs, wallet }
}

/** Deploys TestToken with a supply of 1e24 to dev account 0 and waits for it to be canonical. */
export async function deployTestToken(service: RunningService): Promise<Hex> {
  const { publicHttp, wallet } = clientsFor(service)
  const hash = await wallet.deployContract({
    abi: testToken.abi,
    bytecode: testToken.bytecode,
    args: [10n ** 24n],
    gas: 3_000_000n,
  })
  const receipt = await publicHttp.waitForTransactionReceipt({ hash, pollingInterval: 50 })
  if (!receipt.contractAddress) throw new Error('TestToken deployment has no contract address')
  return receipt.contractAddress
}
