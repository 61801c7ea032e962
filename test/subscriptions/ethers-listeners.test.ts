import { Contract, JsonRpcProvider, WebSocketProvider, Wallet, id as eventTopic, zeroPadValue, type Log } from 'ethers'
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest'
import { startService, type RunningService } from '../../src/service.js'
import { DEV_KEY_0 } from '../support/dev-keys.js'
import { testToken } from '../support/fixtures.js'
import { deployTestToken } from '../support/service-clients.js'

let service: RunningService
let provider: WebSocketProvider
let token: string

beforeAll(async () => {
  service = await startService({ port: 0, quiet: true })
  token = await deployTestToken(service)
  provider = new WebSocketProvider(service.wsUrl, service.config.chainId, { staticNetwork: true })
})

afterAll(async () => {
  // ethers sends eth_unsubscribe after `off` returns: let it be answered before the provider goes
  await vi.waitFor(() => expect(service.subscriptions.count()).toBe(0))
  await provider?.send('eth_chainId', [])
  await provider?.destroy()
  await service?.close()
})

describe('ethers v6 WebSocketProvider', () => {
  test('on("block") reports consecutive block numbers as blocks are sealed', async () => {
    const numbers: number[] = []
    await new Promise<void>((resolve) => {
      const listener = (n: number) => {
        numbers.push(n)
        if (numbers.length === 2) {
          void provider.off('block', listener)
          resolve()
        }
      }
      void provider.on('block', listener)
    })
    expect(numbers[1]).toBe(numbers[0]! + 1)
    const http = new JsonRpcProvider(service.url, service.config.chainId, { staticNetwork: true })
    expect(await http.getBlockNumber()).toBeGreaterThanOrEqual(numbers[1]!)
    http.destroy()
  })

  test('a log listener receives the Transfer log of a transfer to the watched recipient', async () => {
    const recipient = '0x90F79bf6EB2c4f870365E785982E1f101E93b906'
    const filter = {
      address: token,
      topics: [eventTopic('Transfer(address,address,uint256)'), null, zeroPadValue(recipient, 32)],
    }
    const received = new Promise<Log>((resolve) => {
      const listener = (log: Log) => {
        void provider.off(filter, listener)
        resolve(log)
      }
      void provider.on(filter, listener)
    })
    await vi.waitFor(() => expect(service.subscriptions.count('logs')).toBe(1))
    const signer = new Wallet(
      DEV_KEY_0,
      new JsonRpcProvider(service.url, service.config.chainId, { staticNetwork: true }),
    )
    const contract = new Contract(token, testToken.abi as never, signer)
    const tx = await contract.getFunction('transfer')(recipient, 77n, { gasLimit: 100_000n })
    const log = await received
    expect(log.transactionHash).toBe(tx.hash)
    expect(log.address.toLowerCase()).toBe(token.toLowerCase())
    expect(BigInt(log.data)).toBe(77n)
    signer.provider?.destroy()
  })
})
