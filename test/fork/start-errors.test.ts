/**
 * Fork mode's start-up faults are one sentence each, never a hang or a stack trace: a URL that is not
 * HTTP, an upstream nothing listens on, a fork block past the upstream's head, and the flags fork mode
 * cannot combine with.
 */
import type { ChildProcessWithoutNullStreams } from 'node:child_process'
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import { ConfigError } from '../../src/config.js'
import { ForkStartError } from '../../src/errors.js'
import { parseArgs } from '../../src/flags.js'
import { startService } from '../../src/service.js'
import { runCli } from '../support/cli-process.js'
import { freePort } from '../support/free-port.js'
import { type RunningAnvil, startAnvil } from '../support/anvil.js'
import { call } from '../support/rpc.js'

let anvil: RunningAnvil
const children: ChildProcessWithoutNullStreams[] = []
beforeAll(async () => {
  anvil = await startAnvil()
}, 30_000)
afterAll(() => anvil?.close())
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL')
})

const start = (overrides: Parameters<typeof startService>[0]) => startService({ port: 0, quiet: true, ...overrides })

describe('fork mode refuses to start', () => {
  test('with a URL that is not http(s)', async () => {
    await expect(start({ forkUrl: 'ws://127.0.0.1:8545' })).rejects.toThrow(
      new ConfigError('--fork-url must be an http:// or https:// URL, got "ws://127.0.0.1:8545"'),
    )
  })

  test('when nothing answers at the URL', async () => {
    const url = `http://127.0.0.1:${await freePort()}`
    const started = start({ forkUrl: url })
    await expect(started).rejects.toBeInstanceOf(ForkStartError)
    await expect(started).rejects.toThrow(/--fork-url: upstream http:\/\/127\.0\.0\.1:\d+ unavailable: ECONNREFUSED/)
  })

  test("with a fork block past the upstream's head", async () => {
    const head = BigInt(await call(anvil.url, 'eth_blockNumber'))
    await expect(start({ forkUrl: anvil.url, forkBlockNumber: head + 5n })).rejects.toThrow(
      new ForkStartError(`--fork-block-number ${head + 5n} is past the head of ${anvil.url} (block ${head})`),
    )
  })

  test('with --data-dir (a fork lives in memory)', async () => {
    await expect(start({ forkUrl: anvil.url, dataDir: '/tmp/nowhere' })).rejects.toThrow(
      /does not combine with --data-dir/,
    )
  })

  test('with flags it cannot combine with, or a block number without a node', () => {
    expect(parseArgs(['--fork-url', anvil.url, '--fork-block-number', '12'])).toMatchObject({
      forkUrl: anvil.url,
      forkBlockNumber: 12n,
    })
    expect(() => parseArgs(['--fork-block-number', '3'])).toThrow('--fork-block-number needs --fork-url')
    expect(() => parseArgs(['--fork-url', anvil.url, '--upstream', anvil.url])).toThrow(
      '--fork-url does not combine with --upstream (follower mode)',
    )
    expect(() => parseArgs(['--fork-url', anvil.url, '--genesis', 'g.json'])).toThrow(
      '--fork-url does not combine with --genesis',
    )
  })

  test('from the command line: one line on stderr, exit 1, no stack trace', async () => {
    const cli = await runCli(['--fork-url', `http://127.0.0.1:${await freePort()}`, '--port', '0'], children)
    expect(await cli.exited).toBe(1)
    expect(cli.output.stderr).toMatch(/^preconf-rpc: --fork-url: upstream .* unavailable: ECONNREFUSED/)
    expect(cli.output.stderr).not.toMatch(/\n\s+at /)
  }, 60_000)
})
