import { once } from 'node:events'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, test } from 'vitest'
import WebSocket, { WebSocketServer } from 'ws'
import { SLOW_CONSUMER_CLOSE_CODE, WsConnection } from './ws-connection.js'

const servers: WebSocketServer[] = []

afterEach(async () => {
  for (const server of servers.splice(0)) {
    for (const client of server.clients) client.terminate()
    await new Promise((resolve) => server.close(resolve))
  }
})

/** A real server/client pair on loopback; the server side wrapped in a WsConnection. */
async function pair(clientOptions: WebSocket.ClientOptions = {}, maxBufferedBytes?: number) {
  const server = new WebSocketServer({ port: 0, host: '127.0.0.1' })
  servers.push(server)
  await once(server, 'listening')
  const accepted = once(server, 'connection')
  const client = new WebSocket(`ws://127.0.0.1:${(server.address() as AddressInfo).port}`, clientOptions)
  const [socket] = (await accepted) as [WebSocket]
  await once(client, 'open')
  const gone: WsConnection[] = []
  const connection = new WsConnection(socket, 'general', { onGone: (c) => gone.push(c) }, maxBufferedBytes)
  return { client, connection, gone }
}

describe('keep-alive', () => {
  test('keeps a client that answers pings', async () => {
    const { client, connection, gone } = await pair()
    for (let round = 0; round < 3; round++) {
      connection.heartbeat()
      await once(client, 'ping')
      // ws answers the ping by itself; let the pong reach the server before the next round
      await new Promise((resolve) => connection.socket.once('pong', resolve))
    }
    expect(gone).toEqual([])
    expect(connection.isOpen).toBe(true)
  })

  test('terminates a client that stopped answering pings and reports it gone once', async () => {
    const { client, connection, gone } = await pair({ autoPong: false })
    const closed = once(client, 'close')
    connection.heartbeat()
    await once(client, 'ping')
    connection.heartbeat()
    const [code] = await closed
    expect(code).toBe(1006)
    expect(gone).toEqual([connection])
    connection.heartbeat()
    expect(gone).toHaveLength(1)
  })
})

describe('bounded send buffer', () => {
  test('closes a consumer past the bound with 1008 and sends nothing more', async () => {
    const { client, connection, gone } = await pair({}, 64 * 1024)
    client.pause()
    const frame = 'x'.repeat(16 * 1024)
    let sent = 0
    while (connection.isOpen) {
      connection.send(frame)
      sent++
      if (sent % 64 === 0) await new Promise((resolve) => setImmediate(resolve))
    }
    expect(gone).toEqual([connection])
    const buffered = connection.socket.bufferedAmount
    connection.send(frame)
    expect(connection.socket.bufferedAmount).toBe(buffered)
    const received: number[] = []
    client.on('message', (data) => received.push(String(data).length))
    const closed = once(client, 'close')
    client.resume()
    const [code, reason] = await closed
    expect(code).toBe(SLOW_CONSUMER_CLOSE_CODE)
    expect(String(reason)).toBe('slow consumer: more than 65536 bytes unread')
    expect(received.length).toBeLessThan(sent)
  })
})
