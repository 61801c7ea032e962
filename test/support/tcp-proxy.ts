/**
 * A TCP proxy on loopback in front of an upstream node, for what a follower sees when its upstream fails:
 * down() refuses connections until up() listens again on the same port; freeze() keeps every connection
 * open but passes no byte either way (a hung node, new connections accepted and left waiting) until thaw().
 */
import { once } from 'node:events'
import { type Server, Socket, createServer } from 'node:net'

export interface TcpProxy {
  /** http://127.0.0.1:<port>/ */
  url(): string
  down(): Promise<void>
  up(): Promise<void>
  freeze(): void
  thaw(): void
}

export async function startTcpProxy(targetPort: number): Promise<TcpProxy> {
  const pairs = new Set<[Socket, Socket]>()
  let server: Server | undefined
  let port = 0
  let frozen = false
  const join = ([client, upstream]: [Socket, Socket]) => client.pipe(upstream).pipe(client)
  const split = ([client, upstream]: [Socket, Socket]) => {
    client.unpipe(upstream)
    upstream.unpipe(client)
    client.pause()
    upstream.pause()
  }
  const open = async () => {
    server = createServer((client) => {
      const upstream = new Socket()
      const pair: [Socket, Socket] = [client, upstream]
      pairs.add(pair)
      upstream.connect(targetPort, '127.0.0.1')
      if (frozen) client.pause()
      else join(pair)
      const drop = () => {
        client.destroy()
        upstream.destroy()
        pairs.delete(pair)
      }
      client.on('error', drop).on('close', drop)
      upstream.on('error', drop).on('close', drop)
    })
    server.listen(port, '127.0.0.1')
    await once(server, 'listening')
    port = (server.address() as { port: number }).port
  }
  await open()
  return {
    url: () => `http://127.0.0.1:${port}/`,
    async down() {
      for (const [client, upstream] of pairs) {
        client.destroy()
        upstream.destroy()
      }
      await new Promise((resolve) => server!.close(resolve))
    },
    up: open,
    freeze() {
      frozen = true
      for (const pair of pairs) split(pair)
    },
    thaw() {
      frozen = false
      for (const pair of pairs) join(pair)
    },
  }
}
