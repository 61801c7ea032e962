import type { ChildProcessWithoutNullStreams } from 'node:child_process'
import { keccak256 } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterEach, describe, expect, test } from 'vitest'
import { killLeftovers, runCli, waitForOutput as waitFor } from '../support/cli-process.js'
import { DEV_KEY_0 } from '../support/dev-keys.js'
import { rpc } from '../support/rpc.js'
import { until } from '../support/wait-for.js'
import { WARM_UP_CALLS, WARM_UP_WIDE_CALLS } from '../../src/limits.js'

const children: ChildProcessWithoutNullStreams[] = []
afterEach(() => killLeftovers(children))
const cli = (args: string[], via: 'compiled' | 'tsx' = 'compiled') => runCli(args, children, { via })

// each test starts one or two CLI processes: slow on a loaded machine, not stuck
describe('the command line', { timeout: 90_000 }, () => {
  test('--help prints every flag and exits 0', async () => {
    const { output, exited } = await cli(['--help'])
    expect(await exited).toBe(0)
    expect(output.stdout).toContain('--rate-limit-fail-closed')
    expect(output.stdout).toContain('--trusted-proxies')
  })

  test('a bad flag prints one readable sentence and exits 2', async () => {
    const { output, exited } = await cli(['--network', 'goerli'])
    expect(await exited).toBe(2)
    expect(output.stderr).toBe(
      'preconf-rpc: --network must be mainnet or testnet, got "goerli"\nRun with --help to see every flag.\n',
    )
  })

  test('run as `npm start` runs it (node + tsx): prints the endpoints it serves, answers on them, closes cleanly on SIGTERM', async () => {
    const { child, output, exited } = await cli(['--port', '0', '--network', 'testnet'], 'tsx')
    const [, url] = await waitFor(output, /POST (http:\/\/127\.0\.0\.1:\d+\/)\n/, exited)
    expect(output.stdout).toMatch(/POST http:\/\/127\.0\.0\.1:\d+\/flashblocks\n/)
    expect(output.stdout).toContain('testnet (chain id 1952)')
    expect(await rpc(url!, 'eth_chainId')).toEqual({ jsonrpc: '2.0', id: 1, result: '0x7a0' })
    child.kill('SIGTERM')
    expect(await exited).toBe(0)
    expect(output.stderr).toBe('')
  })

  test('--no-dev-accounts prints no keys, lists no accounts and refuses to sign, while signed sends still work', async () => {
    const { child, output, exited } = await cli(['--port', '0', '--no-dev-accounts'])
    const [, url] = await waitFor(output, /POST (http:\/\/127\.0\.0\.1:\d+\/)\n/, exited)
    await waitFor(output, /Press Ctrl\+C/, exited)
    expect(output.stdout).toContain('Dev accounts are off (--no-dev-accounts).')
    expect(output.stdout).not.toMatch(/key 0x[0-9a-f]{64}/)
    const dev0 = privateKeyToAccount(DEV_KEY_0)
    for (const endpoint of [url!, `${url}flashblocks`]) {
      expect((await rpc(endpoint, 'eth_accounts', [])).result).toEqual([])
      expect((await rpc(endpoint, 'eth_sign', [dev0.address, '0x00'])).error).toEqual({
        code: -32000,
        message: 'unknown account',
      })
      const send = await rpc(endpoint, 'eth_sendTransaction', [{ from: dev0.address, to: dev0.address, value: '0x1' }])
      expect(send.error).toEqual({ code: -32000, message: 'unknown account' })
    }
    // a key the user holds still signs locally: the node just holds none
    const raw = await dev0.signTransaction({
      chainId: 196,
      type: 'eip1559',
      to: dev0.address,
      value: 1n,
      gas: 21_000n,
      nonce: 0,
      maxFeePerGas: 10n ** 10n,
      maxPriorityFeePerGas: 1n,
    })
    expect((await rpc(url!, 'eth_sendRawTransaction', [raw])).result).toBe(keccak256(raw))
    child.kill('SIGTERM')
    expect(await exited).toBe(0)
  })

  test('a port already in use is a readable error', async () => {
    const probe = await cli(['--port', '0'])
    const [, port] = await waitFor(probe.output, /127\.0\.0\.1:(\d+)\//, probe.exited)
    const second = await cli(['--port', port!])
    expect(await second.exited).toBe(2)
    expect(second.output.stderr).toContain(`port ${port} on 127.0.0.1 is already in use`)
    probe.child.kill('SIGTERM')
    expect(await probe.exited).toBe(0)
  })
  test('a fresh CLI warms its call path with calls of its own that the interpreter answers, counted as no request, and still answers its users', async () => {
    const { child, output, exited } = await cli(['--port', '0'])
    const [, url] = await waitFor(output, /POST (http:\/\/127\.0\.0\.1:\d+\/)\n/, exited)
    const metrics = async () => (await fetch(new URL('/metrics', url))).text()
    const answered = (text: string) => Number(/^preconf_evm_interpreter_calls_total (\d+)$/m.exec(text)?.[1] ?? 0)
    await until(
      // the L1 fee calls, a revert, one out of gas, the wide calls
      async () => answered(await metrics()) >= WARM_UP_CALLS + 2 + WARM_UP_WIDE_CALLS,
      'the warm-up calls',
      60_000,
    )
    expect(await metrics()).not.toMatch(/^preconf_evm_interpreter_fallbacks_total\{/m)
    // the dispatcher answered them in process: no eth_call in the requests' metrics
    expect(await metrics()).not.toMatch(/^preconf_rpc_requests_total\{[^}]*method="eth_call"/m)
    expect(
      (await rpc(url!, 'eth_call', [{ to: '0x420000000000000000000000000000000000000f', data: '0x313ce567' }])).result,
    ).toBe(`0x${'6'.padStart(64, '0')}`)
    child.kill('SIGTERM')
    expect(await exited).toBe(0)
  })
})
