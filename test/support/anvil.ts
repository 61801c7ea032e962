/**
 * anvil (the @foundry-rs dev dependency) as a peer in tests: same mnemonic and chain id as our embedded
 * chain, Prague, on a free loopback port; resolves once it answers.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { DEFAULT_MNEMONIC } from '../../src/config.js'
import { waitFor } from '../../scripts/cluster/processes.js'
import { spawnOnFreePort } from './free-port.js'
import { rpc } from './rpc.js'
import { tracked } from './children.js'

export const ANVIL_BIN = new URL('../../node_modules/@foundry-rs/anvil-linux-amd64/bin/anvil', import.meta.url).pathname

export interface RunningAnvil {
  url: string
  /** For fault tests (SIGSTOP / SIGCONT). */
  pid: number
  close(): void
}

/**
 * `extraArgs` such as ['--block-time', '0.2']; chain id 196 and Prague unless given there; `port` to restart on a
 * known one (else a free one, and another if a different process takes it before anvil binds it).
 */
export async function startAnvil(extraArgs: string[] = [], port?: number): Promise<RunningAnvil> {
  const chainId = extraArgs.includes('--chain-id') ? [] : ['--chain-id', '196']
  // OP hardfork names with --network optimism (isthmus, jovian); Prague otherwise
  const hardfork = extraArgs.includes('--hardfork') ? [] : ['--hardfork', 'prague']
  const args = [...chainId, '--mnemonic', DEFAULT_MNEMONIC, ...hardfork, '--silent', ...extraArgs]
  const spawnAt = (port: number) =>
    tracked(spawn(ANVIL_BIN, ['--host', '127.0.0.1', '--port', String(port), ...args], { stdio: 'ignore' }))
  let child: ChildProcess
  if (port === undefined) ({ child, port } = await spawnOnFreePort('anvil', spawnAt, answers))
  else {
    child = spawnAt(port)
    await answers(child, port).catch((err) => {
      child.kill()
      throw err
    })
  }
  return { url: `http://127.0.0.1:${port}`, pid: child.pid!, close: () => child.kill() }
}

/** Resolves once anvil on `port` answers; rejects when it exits first (a busy machine starts it slowly: the test's timeout bounds the wait). */
function answers(child: ChildProcess, port: number): Promise<void> {
  const answered = () => rpc(`http://127.0.0.1:${port}`, 'eth_chainId').then(() => true)
  return waitFor(`anvil on port ${port}`, child, answered, undefined, 50)
}
