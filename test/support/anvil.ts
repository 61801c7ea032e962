/**
 * anvil (the @foundry-rs dev dependency) as a peer in tests: same mnemonic and chain id as our embedded
 * chain, Prague, on a free loopback port; resolves once it answers.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { DEFAULT_MNEMONIC } from '../../src/config.js'
import { freePort } from './free-port.js'
import { rpc } from './rpc.js'
import { tracked } from './children.js'

export const ANVIL_BIN = new URL('../../node_modules/@foundry-rs/anvil-linux-amd64/bin/anvil', import.meta.url).pathname

export interface RunningAnvil {
  url: string
  /** For fault tests (SIGSTOP / SIGCONT). */
  pid: number
  close(): void
}

/** `extraArgs` such as ['--block-time', '0.2']; chain id 196 and Prague unless given there; `port` to restart on a known one. */
export async function startAnvil(extraArgs: string[] = [], port?: number): Promise<RunningAnvil> {
  port ??= await freePort()
  const chainId = extraArgs.includes('--chain-id') ? [] : ['--chain-id', '196']
  // OP hardfork names with --network optimism (isthmus, jovian); Prague otherwise
  const hardfork = extraArgs.includes('--hardfork') ? [] : ['--hardfork', 'prague']
  const child: ChildProcess = tracked(
    spawn(
      ANVIL_BIN,
      [
        '--host',
        '127.0.0.1',
        '--port',
        String(port),
        ...chainId,
        '--mnemonic',
        DEFAULT_MNEMONIC,
        ...hardfork,
        '--silent',
        ...extraArgs,
      ],
      { stdio: 'ignore' },
    ),
  )
  const url = `http://127.0.0.1:${port}`
  for (let attempt = 0; ; attempt++) {
    try {
      await rpc(url, 'eth_chainId')
      break
    } catch (err) {
      if (attempt === 100) {
        child.kill()
        throw new Error(`anvil did not answer on ${url} within 10 s: ${(err as Error).message}`)
      }
      await new Promise((r) => setTimeout(r, 100))
    }
  }
  return { url, pid: child.pid!, close: () => child.kill() }
}
