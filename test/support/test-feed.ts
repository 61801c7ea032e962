/**
 * A raw flashblocks feed that a test writes frame by frame: a WebSocket server on loopback that sends each
 * message to every connected client as JSON text or brotli (0x1E), so a test decides what a follower's
 * `--upstream-feed` says and in which order (gaps, duplicates, frames out of order). A frame sent while no
 * client is connected (the follower reconnecting after a pong it missed on a loaded machine) waits for the
 * next connection, so a test's sequence arrives whole.
 */
import { once } from 'node:events'
import WebSocket, { WebSocketServer } from 'ws'
import { encodeBrotliFrame, encodeJsonFrame } from '../../src/feed/codec.js'
import type { FeedMessage } from '../../src/feed/wire.js'
import { until } from './wait-for.js'

export interface TestFeed {
  /** ws://127.0.0.1:<port>/ for `--upstream-feed`. */
  readonly url: string
  /** Sends one message to every client connected now. */
  send(message: FeedMessage, framing?: 'json' | 'brotli'): void
  /** Sends a frame as it is: text for a string, binary for a buffer (another producer's framing, or garbage). */
  sendFrame(frame: string | Buffer): void
  /** Until at least one client (the follower's feed client) is connected. */
  connected(): Promise<void>
  close(): Promise<void>
}

export async function startTestFeed(): Promise<TestFeed> {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 })
  await once(server, 'listening')
  const { port } = server.address() as { port: number }
  const backlog: (string | Buffer)[] = []
  const open = () => [...server.clients].filter((c) => c.readyState === WebSocket.OPEN)
  server.on('connection', (client) => {
    for (const frame of backlog.splice(0)) client.send(frame)
  })
  const sendFrame = (frame: string | Buffer) => {
    const clients = open()
    if (clients.length === 0) backlog.push(frame)
    for (const client of clients) client.send(frame)
  }
  return {
    url: `ws://127.0.0.1:${port}/`,
    send(message, framing = 'json') {
      sendFrame(framing === 'json' ? encodeJsonFrame(message) : encodeBrotliFrame(message))
    },
    sendFrame,
    connected: () => until(() => server.clients.size > 0, 'the follower to connect to the test feed'),
    close: () =>
      new Promise((resolve) => {
        for (const client of server.clients) client.terminate()
        server.close(() => resolve())
      }),
  }
}
