/**
 * A JSON-RPC node on loopback that serves one state-test pre-state as its state at every block: the four reads
 * a follower's upstream-backed state makes (eth_getBalance, eth_getTransactionCount, eth_getCode,
 * eth_getStorageAt), singly or batched. `serve` swaps the state between cases.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { PreAccount } from './fixtures.js'

type Request = { id?: unknown; method?: string; params?: unknown[] }

const ZERO_WORD = `0x${'0'.repeat(64)}`
const quantity = (hex: string | undefined) => `0x${BigInt(hex && hex !== '0x' ? hex : 0).toString(16)}`

export class PreStateUpstream {
  private accounts = new Map<string, PreAccount>()
  private requests = 0

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(): Promise<PreStateUpstream> {
    let upstream: PreStateUpstream | undefined
    const server = createServer((req, res) => {
      let body = ''
      req.on('data', (chunk) => {
        body += chunk
      })
      req.on('end', () => {
        const parsed = JSON.parse(body) as Request | Request[]
        const reply = Array.isArray(parsed) ? parsed.map((r) => upstream!.answer(r)) : upstream!.answer(parsed)
        res.setHeader('content-type', 'application/json')
        res.end(JSON.stringify(reply))
      })
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const { port } = server.address() as AddressInfo
    upstream = new PreStateUpstream(server, `http://127.0.0.1:${port}`)
    return upstream
  }

  /** Serves `pre` from now on (addresses in any case). */
  serve(pre: Record<string, PreAccount>): void {
    this.accounts = new Map(Object.entries(pre).map(([address, account]) => [address.toLowerCase(), account]))
  }

  /** Reads answered so far. */
  get served(): number {
    return this.requests
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()))
  }

  private answer({ id, method, params = [] }: Request): unknown {
    this.requests++
    const account = this.accounts.get(String(params[0]).toLowerCase())
    const result = (value: unknown) => ({ jsonrpc: '2.0', id, result: value })
    switch (method) {
      case 'eth_getBalance':
        return result(quantity(account?.balance))
      case 'eth_getTransactionCount':
        return result(quantity(account?.nonce))
      case 'eth_getCode':
        return result(account?.code || '0x')
      case 'eth_getStorageAt': {
        const slot = BigInt(String(params[1]))
        const entry = Object.entries(account?.storage ?? {}).find(([k]) => BigInt(k) === slot)
        return result(entry ? `0x${BigInt(entry[1]).toString(16).padStart(64, '0')}` : ZERO_WORD)
      }
      default:
        return { jsonrpc: '2.0', id, error: { code: -32601, message: `the method ${method} does not exist` } }
    }
  }
}
