/**
 * An HTTP JSON-RPC upstream on loopback in front of a real node, which the test can make stall: while
 * stalled it reads every request whole, records its methods and never answers (a hung node that still
 * accepts connections and requests), so a test can count what a follower asked while it waited. Otherwise
 * requests pass to the node and its answers back. WebSocket upgrades are not passed: a follower behind it
 * polls for heads.
 */
import { once } from 'node:events'
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http'

export interface StallingUpstream {
  /** http://127.0.0.1:<port>/ */
  readonly url: string
  stall(): void
  /** The methods of each request received while stalled (a batch's methods in order), oldest first. */
  readonly stalled: readonly (readonly string[])[]
  close(): Promise<void>
}

export async function startStallingUpstream(target: string): Promise<StallingUpstream> {
  const held = new Set<ServerResponse>()
  const stalled: string[][] = []
  let stalling = false
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    const body = Buffer.concat(chunks).toString()
    if (stalling) {
      const json = JSON.parse(body) as { method: string } | { method: string }[]
      stalled.push((Array.isArray(json) ? json : [json]).map((call) => call.method))
      held.add(res)
      return
    }
    try {
      const answer = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
      res.writeHead(answer.status, { 'content-type': 'application/json' }).end(await answer.text())
    } catch {
      res.destroy()
    }
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as { port: number }
  return {
    url: `http://127.0.0.1:${port}/`,
    stall: () => {
      stalling = true
    },
    stalled,
    async close() {
      for (const res of held) res.destroy()
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    },
  }
}
