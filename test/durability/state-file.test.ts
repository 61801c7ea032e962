/**
 * --dump-state / --load-state: the head's accounts, code and storage written as anvil's state file and
 * loaded into a fresh chain (in memory and in a data directory) with the same state root; anvil loads
 * our file and we load anvil's; a bad file is refused with a sentence that names it.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createPublicClient, createWalletClient, type Hex, http, parseEther } from 'viem'
import { afterAll, expect, test } from 'vitest'
import type { StateDump } from '../../src/chain/persist/state-dump.js'
import { StateFileError } from '../../src/chain/persist/state-load.js'
import { type RunningService, startService } from '../../src/service.js'
import { startAnvil } from '../support/anvil.js'
import { BOB, devAccount } from '../support/dev-keys.js'
import { testToken } from '../support/fixtures.js'
import { viemChain } from '../support/harness.js'
import { call as rpc } from '../support/rpc.js'
import { until } from '../support/wait-for.js'

const dir = mkdtempSync(join(tmpdir(), 'preconf-state-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
const base = { port: 0, quiet: true, rateLimit: 0, blockTimeMs: 200, flashblockIntervalMs: 50 } as const
const start = (extra: object) => startService({ ...base, ...extra }) as Promise<RunningService>
/** Several services start one after another: generous on a loaded machine. */
const SLOW = 120_000
const readDump = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as StateDump

/** Every account of the dump, read from `url` at `block`, in the dump's own shape. */
async function readAccounts(url: string, dump: StateDump, block: string) {
  const out: Record<string, unknown> = {}
  for (const [address, account] of Object.entries(dump.accounts)) {
    const storage: Record<string, string> = {}
    for (const slot of Object.keys(account.storage))
      storage[slot] = (await rpc(url, 'eth_getStorageAt', [address, slot, block])) as string
    out[address] = {
      nonce: Number(await rpc(url, 'eth_getTransactionCount', [address, block])),
      balance: await rpc(url, 'eth_getBalance', [address, block]),
      code: await rpc(url, 'eth_getCode', [address, block]),
      storage,
    }
  }
  return out
}

test(
  'a dumped state loads into a fresh chain, in memory and in a data directory, with the same state root',
  async () => {
    const file = join(dir, 'state.json')
    const first = await start({ dumpState: file })
    const wallet = createWalletClient({ account: devAccount, chain: viemChain, transport: http(first.url) })
    const client = createPublicClient({ chain: viemChain, transport: http(first.url) })
    const deploy = await wallet.deployContract({ abi: testToken.abi, bytecode: testToken.bytecode, args: [1_000_000n] })
    const token = (await client.waitForTransactionReceipt({ hash: deploy })).contractAddress!
    const transfer = await wallet.writeContract({
      address: token,
      abi: testToken.abi,
      functionName: 'transfer',
      args: [BOB, 77n],
    })
    await client.waitForTransactionReceipt({ hash: transfer })
    await client.waitForTransactionReceipt({ hash: await wallet.sendTransaction({ to: BOB, value: parseEther('2') }) })
    await first.chain.sequencer.stop() // the head stays where it is until the dump at close
    const head = await client.getBlock()
    await first.close()

    const dump = readDump(file)
    expect(BigInt(dump.best_block_number)).toBe(head.number)
    expect(Object.keys(dump.accounts[token.toLowerCase()].storage).length).toBeGreaterThan(0)

    for (const extra of [{}, { dataDir: join(dir, 'loaded') }]) {
      const loaded = await start({ loadState: file, ...extra })
      try {
        const genesis = (await rpc(loaded.url, 'eth_getBlockByNumber', ['0x0', false])) as { stateRoot: Hex }
        expect(genesis.stateRoot).toBe(head.stateRoot)
        expect(await readAccounts(loaded.url, dump, '0x0')).toEqual(dump.accounts)
        expect(await rpc(loaded.url, 'eth_getBalance', [BOB, '0x0'])).toBe(dump.accounts[BOB.toLowerCase()].balance)
      } finally {
        await loaded.close()
      }
    }
    // the data directory now holds a chain: loading over it is refused, never mixed
    await expect(start({ loadState: file, dataDir: join(dir, 'loaded') })).rejects.toThrow(
      /--load-state needs a fresh chain, but --data-dir .* already holds blocks 0\.\./,
    )
    // after a restart the preimages come from the directory: the loaded accounts dump again as they were
    const again = join(dir, 'again.json')
    await (await start({ dataDir: join(dir, 'loaded'), dumpState: again })).close()
    for (const address of [token.toLowerCase(), BOB.toLowerCase()])
      expect(readDump(again).accounts[address]).toEqual(dump.accounts[address])
  },
  SLOW,
)

test(
  'anvil loads our state file and we load anvil’s, account for account',
  async () => {
    const ours = join(dir, 'ours.json')
    const service = await start({ dumpState: ours })
    await service.close()
    const anvil = await startAnvil(['--load-state', ours])
    try {
      const dump = readDump(ours)
      expect(await readAccounts(anvil.url, dump, 'latest')).toEqual(dump.accounts)
    } finally {
      anvil.close()
    }

    const theirs = join(dir, 'anvil.json')
    const source = await startAnvil(['--dump-state', theirs])
    await rpc(source.url, 'anvil_setStorageAt', [BOB, '0x05', `0x${'ab'.padStart(64, '0')}`])
    await rpc(source.url, 'anvil_setCode', [BOB, '0x6001600055'])
    await rpc(source.url, 'evm_mine', [])
    process.kill(source.pid, 'SIGINT') // anvil writes its file on exit
    await until(() => existsSync(theirs), 'anvil writing its state file')
    const dump = readDump(theirs)
    const loaded = await start({ loadState: theirs })
    try {
      expect(dump.accounts[BOB.toLowerCase()].code).toBe('0x6001600055')
      expect(await readAccounts(loaded.url, dump, '0x0')).toEqual(dump.accounts)
    } finally {
      await loaded.close()
    }
  },
  SLOW,
)

test('a bad state file is refused with a sentence naming the file and the fault', async () => {
  const cases: [string, RegExp][] = [
    ['{ not json', /is not JSON/],
    ['{"block": {}}', /has no "accounts" object/],
    ['{"accounts": {"0x12": {}}}', /0x12 is not an address/],
    [`{"accounts": {"${BOB}": {"balance": "-1"}}}`, /balance is not a non-negative quantity/],
    [`{"accounts": {"${BOB}": {"storage": {"0x01": "0xzz"}}}}`, /storage value at 0x01 is not hex/],
  ]
  for (const [text, why] of cases) {
    const file = join(dir, 'bad.json')
    writeFileSync(file, text)
    const failure = await start({ loadState: file }).then(
      () => undefined,
      (err: unknown) => err,
    )
    expect(failure).toBeInstanceOf(StateFileError)
    expect((failure as Error).message).toMatch(new RegExp(`^--load-state ${file}: `))
    expect((failure as Error).message).toMatch(why)
  }
  await expect(start({ loadState: join(dir, 'missing.json') })).rejects.toThrow(/cannot be read \(ENOENT\)/)
})
