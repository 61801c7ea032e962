/**
 * The upstream's `newHeads` subscription as a doorbell: every notification calls `onHead` (the head
 * follower then reads the head over HTTP, so nothing here is trusted or parsed beyond the envelope).
 * Reconnects with backoff, 1 s doubling to 10 s, as base/base's flashblocks subscriber; an upstream that
 * refuses the subscription (no WebSocket, or no eth_subscribe) is left alone and the follower polls.
 */
import WebSocket from 'ws'
import { UPSTREAM_CALL_TIMEOUT_MS, UPSTREAM_RECONNECT_MAX_MS, UPSTREAM_RECONNECT_MIN_MS } from '../limits.js'

export class NewHeadsSocket {
  /** A subscription id has been received and the socket is still open. */
  subscribed = false
  private socket?: WebSocket
  private retryMs = UPSTREAM_RECONNECT_MIN_MS
  private retryTimer?: NodeJS.Timeout
  private wanted = false
  private refused = false

  constructor(
    readonly url: string,
    private readonly onHead: () => void,
    /** `--upstream-timeout`: how long the upgrade may take before the socket gives up and retries. */
    private readonly handshakeTimeoutMs = UPSTREAM_CALL_TIMEOUT_MS,
  ) {}

  open(): void {
    this.wanted = true
    this.connect()
  }

  close(): void {
    this.wanted = false
    clearTimeout(this.retryTimer)
    this.socket?.terminate()
  }

  /** Drops the connection (the HTTP side found the upstream dead); it reconnects with backoff. */
  restart(): void {
    if (this.socket && this.socket.readyState !== WebSocket.CLOSED) this.socket.terminate()
  }

  private connect(): void {
    if (!this.wanted || this.refused) return
    const socket = new WebSocket(this.url, { handshakeTimeout: this.handshakeTimeoutMs })
    this.socket = socket
    socket.on('open', () =>
      socket.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_subscribe', params: ['newHeads'] })),
    )
    socket.on('message', (raw) => {
      let message: { id?: unknown; result?: unknown; error?: unknown; method?: string }
      try {
        message = JSON.parse(String(raw))
      } catch {
        return
      }
      if (message.id === 1) {
        if (message.error || typeof message.result !== 'string') {
          this.refused = true
          socket.terminate()
          return
        }
        this.subscribed = true
        this.retryMs = UPSTREAM_RECONNECT_MIN_MS
        this.onHead() // heads may have come while we were away
      } else if (message.method === 'eth_subscription') {
        this.onHead()
      }
    })
    // 'close' follows every 'error', and an HTTP-only upstream answers the upgrade with an error
    socket.on('error', () => {})
    socket.on('unexpected-response', () => {
      this.refused = true
      socket.terminate()
    })
    socket.on('close', () => {
      if (this.socket !== socket) return
      this.subscribed = false
      if (!this.wanted || this.refused) return
      this.retryTimer = setTimeout(() => this.connect(), this.retryMs)
      this.retryMs = Math.min(this.retryMs * 2, UPSTREAM_RECONNECT_MAX_MS)
    })
  }
}
