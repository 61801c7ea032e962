/**
 * A follower of anvil fed by a test feed: anvil without mining, first-in first-out (so its pending block
 * keeps the order transactions were sent in), a TestFeed as `--upstream-feed`, the follower connected to
 * both, and a TestToken deployed and mined with 1 000 tokens given to BOB.
 */
import { encodeDeployData, encodeFunctionData, type Hex } from 'viem'
import { type RunningFollower, startService } from '../../src/service.js'
import { AnvilFlashblocks } from './anvil-flashblocks.js'
import { type RunningAnvil, startAnvil } from './anvil.js'
import { BOB, devAccount } from './dev-keys.js'
import { testToken } from './fixtures.js'
import { call } from './rpc.js'
import { startTestFeed, type TestFeed } from './test-feed.js'
import { until } from './wait-for.js'

export const DEPLOYER = devAccount.address.toLowerCase() as Hex
/** Dev accounts 3 and 4. */
export const DAVE: Hex = '0x90f79bf6eb2c4f870365e785982e1f101e93b906'
export const ERIN: Hex = '0x15d34aaf54267db7d7c367839aaf71a00a2c6a65'

export interface AnvilFollower {
  anvil: RunningAnvil
  feed: TestFeed
  follower: RunningFollower
  flashblocks: AnvilFlashblocks
  token: Hex
  /** eth_sendTransaction on anvil (it signs for its dev accounts); the hash. */
  send(tx: Record<string, unknown>): Promise<Hex>
  /** Until the follower's head is anvil's latest; that block. */
  caughtUp(): Promise<{ number: Hex; timestamp: Hex; hash: Hex }>
  close(): Promise<void>
}

export function tokenCall(functionName: 'transfer' | 'balanceOf', args: unknown[]): Hex {
  return encodeFunctionData({ abi: testToken.abi, functionName, args } as never) as Hex
}

export async function startAnvilFollower(): Promise<AnvilFollower> {
  const anvil = await startAnvil(['--no-mining', '--order', 'fifo'])
  const feed = await startTestFeed()
  const follower = await startService({
    port: 0,
    quiet: true,
    rateLimit: 0,
    upstream: anvil.url,
    upstreamFeed: feed.url,
    // frames come when a test sends them, seconds apart on a loaded machine
    flashblocksIdleTimeoutMs: 600_000,
  })
  await feed.connected()
  const send = (tx: Record<string, unknown>) => call<Hex>(anvil.url, 'eth_sendTransaction', [tx])
  const deploy = await send({
    from: DEPLOYER,
    data: encodeDeployData({ abi: testToken.abi, bytecode: testToken.bytecode, args: [10n ** 24n] }),
    gas: '0x2dc6c0',
  })
  await call(anvil.url, 'evm_mine')
  const token: Hex = (await call(anvil.url, 'eth_getTransactionReceipt', [deploy])).contractAddress
  await send({ from: DEPLOYER, to: token, data: tokenCall('transfer', [BOB, 1000n]), gas: '0x186a0' })
  await call(anvil.url, 'evm_mine')
  return {
    anvil,
    feed,
    follower,
    flashblocks: new AnvilFlashblocks(anvil.url, feed),
    token,
    send,
    async caughtUp() {
      const latest = await call(anvil.url, 'eth_getBlockByNumber', ['latest', false])
      await until(
        async () => (await call(follower.url, 'eth_blockNumber')) === latest.number,
        'the follower at anvil head',
      )
      return latest
    },
    async close() {
      await follower.close()
      await feed.close()
      anvil.close()
    },
  }
}
