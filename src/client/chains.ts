/**
 * viem chain definitions for X Layer with preconfirmations. `experimental_preconfirmationTime` makes viem
 * clients read `pending` by default (balances, nonces, calls, receipts: the newest flashblock) and poll
 * every 200 ms, as viem's own Base definitions do. viem's waitForTransactionReceipt polls eth_blockNumber,
 * though, which on /flashblocks is the canonical height: a receipt it missed at its first look it finds at
 * the next sealed block. For the preconfirmed receipt use sendTransactionSync (eth_sendRawTransactionSync)
 * or poll getTransactionReceipt.
 */
import { type Chain, defineChain } from 'viem'
import { xLayer, xLayerTestnet } from 'viem/chains'
import { wsUrlOf } from './ws-url.js'

/** One flashblock: how soon a sent transaction's receipt can be read on a /flashblocks endpoint (ms). */
export const PRECONFIRMATION_TIME_MS = 200

/** X Layer mainnet (196) through its public flashblocks RPC. */
export const xLayerPreconf: Chain = defineChain({
  ...xLayer,
  name: 'X Layer (preconfirmations)',
  rpcUrls: { default: { http: ['https://rpc.xlayer.tech/flashblocks'] } },
  experimental_preconfirmationTime: PRECONFIRMATION_TIME_MS,
})

/** X Layer testnet (1952); no public flashblocks URL is documented, so point rpcUrls at your own. */
export const xLayerTestnetPreconf: Chain = defineChain({
  ...xLayerTestnet,
  name: 'X Layer Testnet (preconfirmations)',
  experimental_preconfirmationTime: PRECONFIRMATION_TIME_MS,
})

/**
 * The chain a preconf-rpc instance serves (`npm start`: http://127.0.0.1:8545), read through its
 * /flashblocks endpoint. No multicall3 contract: a fresh embedded chain has none deployed.
 */
export function preconfRpcChain(baseUrl = 'http://127.0.0.1:8545', network: 'mainnet' | 'testnet' = 'mainnet'): Chain {
  const base = network === 'mainnet' ? xLayerPreconf : xLayerTestnetPreconf
  const root = baseUrl.replace(/\/+$/, '')
  return defineChain({
    ...base,
    name: `preconf-rpc (${network})`,
    rpcUrls: { default: { http: [`${root}/flashblocks`], webSocket: [`${wsUrlOf(root)}/flashblocks`] } },
    contracts: undefined,
    testnet: true,
  })
}
