/**
 * Shared by the subscription and feed tests: viem clients for a running service, the dev account that
 * deploys, and the TestToken fixture. Test support only; nothing in the service imports it.
 */
import { readFileSync } from 'node:fs'
import { createPublicClient, createWalletClient, defineChain, http, webSocket, type Abi, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import type { RunningService } from '../service.js'

/** anvil's dev key 0 (the service's first dev account). */
export const DEV_KEY_0: Hex = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80'
export const devAccount = privateKeyToAccount(DEV_KEY_0)

const fixture = JSON.parse(readFileSync(new URL('../../test/fixtures/TestToken.json', import.meta.url), 'utf8')) as {
  TestToken: { abi: Abi; bytecode: Hex }
}
export const testToken = fixture.TestToken

export function chainOf(service: RunningService) {
  return defineChain({
    id: service.config.chainId,
    name: 'preconf-rpc',
    nativeCurrency: { name: 'OKB', symbol: 'OKB', decimals: 18 },
    rpcUrls: { default: { http: [service.url], webSocket: [service.wsUrl] } },
  })
}

export function wsUrlOf(httpUrl: string): string {
  return httpUrl.replace(/^http/, 'ws')
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
  const hash = await wallet.deployContract({ abi: testToken.abi, bytecode: testToken.bytecode, args: [10n ** 24n], gas: 3_000_000n })
  const receipt = await publicHttp.waitForTransactionReceipt({ hash, pollingInterval: 50 })
  if (!receipt.contractAddress) throw new Error('TestToken deployment has no contract address')
  return receipt.contractAddress
}
