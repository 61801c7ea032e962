/**
 * A JSON-RPC node on loopback that serves one state-test pre-state as its state at every block: the reads
 * a follower's upstream-backed state makes (eth_getBalance, eth_getTransactionCount, eth_getCode,
 * eth_getStorageAt, and eth_getProof's storageHash for EIP-7610's creation check), singly or batched.
 * `serve` swaps the state between cases; `asked` counts the calls of a method.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { MerkleStateManager } from '@ethereumjs/statemanager'
import { bytesToHex, createAddressFromString } from '@ethereumjs/util'
import type { PreAccount } from './fixtures.js'

type Request = { id?: unknown; method?: string; params?: unknown[] }

const ZERO_WORD = `0x${'0'.repeat(64)}`
const quantity = (hex: string | undefined) => `0x${BigInt(hex && hex !== '0x' ? hex : 0).toString(16)}`

export class PreStateUpstream {
  private accounts = new Map<string, PreAccount>()
  /** The pre-state in a trie, for storage roots. */
  private trie: MerkleStateManager | undefined
  private requests = 0
  private readonly byMethod = new Map<string, number>()
  /** A method answered as one this node lacks (-32601), as some upstreams lack eth_getProof. */
  private refused: string | undefined

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
        const reply = Array.isArray(parsed)
          ? Promise.all(parsed.map((r) => upstream!.answer(r)))
          : upstream!.answer(parsed)
        void Promise.resolve(reply).then((value) => {
          res.setHeader('content-type', 'application/json')
          res.end(JSON.stringify(value))
        })
      })
    })
    // a heavy case can leave the client's pooled connection idle past Node's 5 s default; the server closing
    // it as the client reuses it is an ECONNRESET that is the harness's, not the follower's
    server.keepAliveTimeout = 600_000
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const { port } = server.address() as AddressInfo
    upstream = new PreStateUpstream(server, `http://127.0.0.1:${port}`)
    return upstream
  }

  /** Serves `pre` from now on (addresses in any case); `trie` holds the same state (prestate.ts preState). */
  serve(pre: Record<string, PreAccount>, trie: MerkleStateManager): void {
    this.accounts = new Map(Object.entries(pre).map(([address, account]) => [address.toLowerCase(), account]))
    this.trie = trie
  }

  /** From now on `method` is one this node lacks (undefined: none). */
  refuse(method: string | undefined): void {
    this.refused = method
  }

  /** Calls of `method` answered so far. */
  asked(method: string): number {
    return this.byMethod.get(method) ?? 0
  }

  /** Reads answered so far. */
  get served(): number {
    return this.requests
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()))
  }

  private async answer({ id, method, params = [] }: Request): Promise<unknown> {
    this.requests++
    this.byMethod.set(String(method), this.asked(String(method)) + 1)
    const account = this.accounts.get(String(params[0]).toLowerCase())
    const result = (value: unknown) => ({ jsonrpc: '2.0', id, result: value })
    switch (method === this.refused ? undefined : method) {
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
      case 'eth_getProof': {
        // the storage root is all a follower asks for (no slots); geth's zero hash for a missing account
        const found = await this.trie!.getAccount(createAddressFromString(String(params[0])))
        const storageHash = found ? bytesToHex(found.storageRoot) : ZERO_WORD
        return result({ address: params[0], storageHash, accountProof: [], storageProof: [] })
      }
      default:
        return { jsonrpc: '2.0', id, error: { code: -32601, message: `the method ${method} does not exist` } }
    }
  }
}
