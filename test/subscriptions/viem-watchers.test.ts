import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest'
import { parseEther, type Block, type Hash, type Hex } from 'viem'
import { startService, type RunningService } from '../../src/service.js'
import { devAccount } from '../support/dev-keys.js'
import { testToken } from '../support/fixtures.js'
import { clientsFor, deployTestToken } from '../support/service-clients.js'

let service: RunningService
let clients: ReturnType<typeof clientsFor>
let token: Hex

beforeAll(async () => {
  service = await startService({ port: 0, quiet: true })
  clients = clientsFor(service)
  token = await deployTestToken(service)
})

afterAll(async () => {
  await clients?.publicWs.transport.getRpcClient().then((c) => c.close())
  await service?.close()
})

/** Resolves with the first `count` values a watcher reports, then stops the watcher. */
function collect<T>(
  count: number,
  start: (push: (value: T) => void, fail: (error: Error) => void) => () => void,
): Promise<T[]> {
  return new Promise((resolve, reject) => {
    const values: T[] = []
    const stop = start(
      (value) => {
        values.push(value)
        if (values.length === count) {
          stop()
          resolve(values)
        }
      },
      (error) => {
        stop()
        reject(error)
      },
    )
  })
}

describe('viem over its webSocket transport', () => {
  test('watchBlocks reports consecutive canonical blocks with the hashes eth_getBlockByNumber gives', async () => {
    const blocks = await collect<Block>(2, (push, fail) =>
      clients.publicWs.watchBlocks({ onBlock: push, onError: fail, emitMissed: false }),
    )
    expect(blocks[1]!.number).toBe(blocks[0]!.number! + 1n)
    expect(blocks[1]!.parentHash).toBe(blocks[0]!.hash)
    for (const block of blocks) {
      const canonical = await clients.publicHttp.getBlock({ blockNumber: block.number! })
      expect(block.hash).toBe(canonical.hash)
      expect(block.stateRoot).toBe(canonical.stateRoot)
    }
  })

  test('watchContractEvent delivers the Transfer log of a token transfer, decoded', async () => {
    const recipient = '0x70997970c51812dc3a010c7d01b54a0d8d1dc79c'
    const logsPromise = new Promise<{ args: unknown; transactionHash: Hash | null; logIndex: number | null }[]>(
      (resolve, reject) => {
        const stop = clients.publicWs.watchContractEvent({
          address: token,
          abi: testToken.abi,
          eventName: 'Transfer',
          args: { to: recipient },
          onLogs: (logs) => {
            stop()
            resolve(logs as never)
          },
          onError: (error) => {
            stop()
            reject(error)
          },
        })
      },
    )
    await vi.waitFor(() => expect(service.subscriptions.count('logs')).toBe(1))
    const hash = await clients.wallet.writeContract({
      address: token,
      abi: testToken.abi,
      functionName: 'transfer',
      args: [recipient, 1234n],
      gas: 100_000n,
    })
    const logs = await logsPromise
    expect(logs).toHaveLength(1)
    expect(logs[0]!.transactionHash).toBe(hash)
    expect(logs[0]!.args).toEqual({
      from: devAccount.address,
      to: expect.stringMatching(/^0x70997970c51812dc3a010c7d01b54a0d8d1dc79c$/i),
      value: 1234n,
    })
    const receipt = await clients.publicHttp.getTransactionReceipt({ hash })
    expect(logs[0]!.logIndex).toBe(receipt.logs[0]!.logIndex)
  })

  test('watchPendingTransactions reports the hash of a transaction as the pool accepts it', async () => {
    // the notification may arrive before eth_sendRawTransaction's reply: keep every hash seen
    const seen = new Set<Hash>()
    let failure: Error | undefined
    const stop = clients.publicWs.watchPendingTransactions({
      onTransactions: (hashes) => hashes.forEach((h) => seen.add(h)),
      onError: (error) => {
        failure = error
      },
    })
    try {
      await vi.waitFor(() => expect(service.subscriptions.count('newPendingTransactions')).toBe(1))
      const sent = await clients.wallet.sendTransaction({
        to: '0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc',
        value: parseEther('0.01'),
        gas: 21_000n,
      })
      await vi.waitFor(
        () => {
          expect(failure).toBeUndefined()
          expect(seen.has(sent)).toBe(true)
        },
        { timeout: 10_000, interval: 20 },
      )
    } finally {
      stop()
    }
  })
})
