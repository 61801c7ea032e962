/**
 * A data directory that cannot be used is refused with a sentence, and a torn last journal record (the
 * process died while LevelDB was appending it) costs that record only: the valid prefix is rebuilt and
 * the transaction it carried comes back from the pool journal. A full disk stops the chain at its last
 * durable block, with an error that says so, and the directory opens again once there is room.
 */
import { spawnSync } from 'node:child_process'
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { hexToBytes, bytesToHex } from '@ethereumjs/util'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, expect, test } from 'vitest'
import { createChain } from '../../src/chain/create-chain.js'
import { defaultConfig } from '../../src/config.js'
import { compiledCli } from '../support/cli-build.js'
import { BOB, DEV_KEYS } from '../support/dev-keys.js'
import { startLeaderProcess } from '../support/leader-process.js'
import { runNode } from '../support/run-script.js'
import { userTxs } from '../support/user-txs.js'

const root = mkdtempSync(join(tmpdir(), 'preconf-bad-'))
let mounted: string | undefined
afterAll(() => {
  if (mounted) spawnSync('umount', [mounted])
  rmSync(root, { recursive: true, force: true })
})

const cli = async (args: string[]) =>
  runNode([await compiledCli()], ['--port', '0', '--quiet', '--rate-limit', '0', ...args])

test('a second process on a data directory in use is refused with a clear message', async () => {
  const dir = join(root, 'locked')
  const holder = await startLeaderProcess(['--data-dir', dir])
  try {
    const second = await cli(['--data-dir', dir])
    expect(second.code).toBe(2)
    expect(second.output).toContain(`--data-dir ${dir} is in use by another process`)
  } finally {
    await holder.close()
  }
}, 120_000)

test('a data directory that is not a directory is refused', async () => {
  const file = join(root, 'a-file')
  writeFileSync(file, 'not a database')
  const result = await cli(['--data-dir', join(file, 'chain')])
  expect(result.code).toBe(2)
  expect(result.output).toContain('is not a readable and writable directory')
}, 120_000)

test('a data directory of another chain is refused, not reused', async () => {
  const dir = join(root, 'mainnet')
  const chain = await createChain(defaultConfig({ quiet: true, dataDir: dir }))
  await chain.stop()
  const result = await cli(['--data-dir', dir, '--network', 'testnet'])
  expect(result.code).toBe(2)
  expect(result.output).toContain('holds chain 196, not chain 1952')
}, 120_000)

test('a torn last journal record is dropped and the preconfirmed prefix rebuilt at the same positions', async () => {
  const dir = join(root, 'torn')
  const options = defaultConfig({ quiet: true, dataDir: dir })
  const chain = await createChain(options)
  const sender = privateKeyToAccount(DEV_KEYS[2])
  const hashes: string[] = []
  for (let nonce = 0; nonce < 3; nonce++) {
    const raw = await sender.signTransaction({
      chainId: 196,
      type: 'eip1559',
      nonce,
      to: BOB,
      value: 1n,
      gas: 21_000n,
      maxFeePerGas: 10_000_000_000n,
      maxPriorityFeePerGas: 1_000_000_000n,
    })
    hashes.push(bytesToHex(await chain.sendRawTransaction(hexToBytes(raw))))
    const fb = await chain.buildNow() // one journal record per transaction
    expect(userTxs({ txs: fb.executed.txs })).toHaveLength(1)
  }
  await chain.stop()
  // the newest LevelDB write-ahead log ends with the third flashblock's batch: cut into it
  const log = readdirSync(dir)
    .filter((f) => f.endsWith('.log'))
    .sort()
    .at(-1)!
  truncateSync(join(dir, log), statSync(join(dir, log)).size - 8)

  const again = await createChain(options)
  try {
    const pending = again.pending.current()!
    expect(userTxs(pending.block).map((t) => bytesToHex(t.hash))).toEqual(hashes.slice(0, 2))
    const block = await again.mine()
    expect(block.number).toBe(1n)
    expect(userTxs(block).map((t) => bytesToHex(t.hash))).toEqual(hashes)
  } finally {
    await again.stop()
  }
}, 120_000)

/** A 2 MB tmpfs, where this process may mount one (root in CI containers); skipped elsewhere. */
function tinyDisk(): string | undefined {
  const mountPoint = join(root, 'tiny')
  mkdirSync(mountPoint)
  const result = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=2m', 'tmpfs', mountPoint], { stdio: 'ignore' })
  if (result.status === 0) mounted = mountPoint
  return mounted
}
const tiny = tinyDisk()

test.skipIf(!tiny)(
  'a full disk stops the chain with a clear error and leaves the sealed prefix intact',
  async () => {
    const dir = join(tiny!, 'chain')
    const chain = await createChain(defaultConfig({ quiet: true, dataDir: dir }))
    let error: Error | undefined
    for (let i = 0; i < 100_000 && !error; i++) await chain.sealNow().catch((err: Error) => (error = err))
    expect(error?.message).toMatch(
      /^--data-dir: cannot write (flash)?block [\d.]+, so it is not published: .*No space left on device/,
    )
    const head = chain.store.latest()
    await chain.stop().catch(() => {})
    const moved = join(root, 'moved')
    cpSync(dir, moved, { recursive: true })
    rmSync(dir, { recursive: true, force: true })
    const again = await createChain(defaultConfig({ quiet: true, dataDir: moved }))
    try {
      expect(again.store.latest().hash).toEqual(head.hash)
      expect((await again.sealNow()).number).toBe(head.number + 1n)
    } finally {
      await again.stop()
    }
  },
  300_000,
)
