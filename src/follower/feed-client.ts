/**
 * A follower's connection to an upstream raw flashblocks feed. Frames are decoded tolerantly (codec.ts: JSON
 * text or binary, brotli with or without 0x1E, the OpFlashblockPayload wrapper, end-of-payload; decode.ts:
 * every producer's dialect) and emitted in arrival order as domain payloads; a malformed frame is counted
 * (`decodeErrors`, preconf_follower_feed_malformed_frames_total) and dropped, the connection kept. Liveness as
 * base/base's subscriber: a ping every 500 ms, and a pong still missing at the next tick (once this process
 * has read what its sockets hold) closes the socket; reconnects back off 1 s doubling to 10 s. Independently,
 * no message for the idle timeout emits 'idle' (the op-reth failure: a frozen pending block served for days
 * with no log and no metric); the next message emits 'resumed'.
 */
import type { FeedClientStats } from '../capabilities/backend-status.js'
import { EventEmitter } from 'node:events'
import WebSocket, { type RawData } from 'ws'
import type { FlashblockPayload } from '../domain/types.js'
import { decodeFrame } from '../feed/codec.js'
import { decodeFlashblock } from '../feed/decode.js'
import { isEndOfBlock } from '../feed/wire.js'
import { parseData } from '../format/hex.js'
import {
  FEED_PING_INTERVAL_MS,
  FEED_RECONNECT_MAX_MS,
  FEED_RECONNECT_MIN_MS,
  FLASHBLOCKS_IDLE_TIMEOUT_MS,
} from '../limits.js'
import { classifyFlashblock, type SequencePosition } from '../pending/sequence.js'

export interface FeedClientOptions {
  url: string
  /** `--flashblocks-idle-timeout`. */
  idleTimeoutMs?: number
  pingIntervalMs?: number
  reconnectMinMs?: number
  reconnectMaxMs?: number
  warn?: (message: string) => void
}

export interface FeedClientEvents {
  payload: [payload: FlashblockPayload]
  /** X Layer's end-of-payload message: no more flashblocks for this payload id. */
  end: [payloadId: Uint8Array]
  idle: []
  resumed: []
  open: []
  close: [reason: string]
}

export class FeedClient extends EventEmitter<FeedClientEvents> {
  readonly stats: FeedClientStats = {
    connects: 0,
    reconnects: 0,
    pongTimeouts: 0,
    messages: 0,
    decodeErrors: 0,
    sequenceBreaks: 0,
    duplicates: 0,
    idles: 0,
    postExecTxs: 0,
  }
  private socket: WebSocket | undefined
  private running = false
  private backoffMs: number
  private reconnectTimer: NodeJS.Timeout | undefined
  private pingTimer: NodeJS.Timeout | undefined
  private idleTimer: NodeJS.Timeout | undefined
  private idle = false
  private position: SequencePosition | undefined
  private readonly o: Required<Omit<FeedClientOptions, 'warn'>> & Pick<FeedClientOptions, 'warn'>
  /** When (ms) the current connection opened, or the last one closed; when the last frame came. */
  connectedAt: number | undefined
  disconnectedAt: number | undefined
  lastFrameAt: number | undefined

  constructor(options: FeedClientOptions) {
    super()
    this.o = {
      idleTimeoutMs: FLASHBLOCKS_IDLE_TIMEOUT_MS,
      pingIntervalMs: FEED_PING_INTERVAL_MS,
      reconnectMinMs: FEED_RECONNECT_MIN_MS,
      reconnectMaxMs: FEED_RECONNECT_MAX_MS,
      ...options,
    }
    this.backoffMs = this.o.reconnectMinMs
  }

  /** True while the feed has been silent past the idle timeout. */
  get isIdle(): boolean {
    return this.idle
  }

  get url(): string {
    return this.o.url
  }

  get connected(): boolean {
    return this.socket?.readyState === WebSocket.OPEN
  }

  start(): void {
    if (this.running) return
    this.running = true
    this.armIdle()
    this.connect()
  }

  stop(): void {
    this.running = false
    clearTimeout(this.reconnectTimer)
    clearTimeout(this.idleTimer)
    clearInterval(this.pingTimer)
    this.socket?.terminate()
    this.socket = undefined
  }

  private connect(): void {
    // a frozen server accepts the TCP connection but never answers the upgrade
    const socket = new WebSocket(this.o.url, { handshakeTimeout: this.o.reconnectMaxMs, perMessageDeflate: false })
    this.socket = socket
    let awaitingPong = false
    socket.on('open', () => {
      this.stats.connects++
      this.connectedAt = Date.now()
      this.disconnectedAt = undefined
      this.backoffMs = this.o.reconnectMinMs
      const ping = () => {
        awaitingPong = true
        socket.ping()
      }
      this.pingTimer = setInterval(() => {
        if (!awaitingPong) return ping()
        // judged after this process has read its sockets (the check phase follows the poll phase): when our
        // own event loop stalled (GC, a heavy re-execution), the tick comes late and runs before the read of
        // a pong that arrived in time; it waits in the socket buffer, not missing
        setImmediate(() => {
          if (this.socket !== socket) return
          if (!awaitingPong) return ping()
          this.stats.pongTimeouts++
          socket.terminate()
        })
      }, this.o.pingIntervalMs)
      this.emit('open')
    })
    socket.on('pong', () => (awaitingPong = false))
    socket.on('message', (data, isBinary) => this.onFrame(data, isBinary))
    socket.on('error', () => {}) // 'close' follows and says enough
    socket.on('close', (code, reason) => {
      clearInterval(this.pingTimer)
      if (this.socket !== socket) return
      this.socket = undefined
      if (this.connectedAt !== undefined) this.disconnectedAt = Date.now()
      this.connectedAt = undefined
      this.emit('close', `${code}${reason.length ? ` ${reason.toString()}` : ''}`)
      if (this.running) this.scheduleReconnect()
    })
  }

  private scheduleReconnect(): void {
    this.stats.reconnects++
    const wait = this.backoffMs
    this.backoffMs = Math.min(this.backoffMs * 2, this.o.reconnectMaxMs)
    this.o.warn?.(`flashblocks feed ${this.o.url} lost; reconnecting in ${wait} ms`)
    this.reconnectTimer = setTimeout(() => this.running && this.connect(), wait)
  }

  private onFrame(data: RawData, isBinary: boolean): void {
    this.stats.messages++
    this.lastFrameAt = Date.now()
    this.armIdle()
    if (this.idle) {
      this.idle = false
      this.emit('resumed')
    }
    const bytes = Array.isArray(data) ? Buffer.concat(data) : Buffer.isBuffer(data) ? data : Buffer.from(data)
    let payload: FlashblockPayload
    try {
      const message = decodeFrame(isBinary ? bytes : bytes.toString('utf8'))
      if (isEndOfBlock(message)) {
        this.emit('end', parseData(message.payload_id))
        return
      }
      payload = decodeFlashblock(message)
    } catch (err) {
      this.stats.decodeErrors++
      this.o.warn?.(`undecodable flashblocks feed frame: ${(err as Error).message}`)
      return
    }
    if (payload.diff.postExecTx && this.stats.postExecTxs++ === 0)
      this.o.warn?.('the feed carries post_exec_tx (0x7d) transactions: not executed here, pending lacks their refunds')
    this.track(payload)
    this.emit('payload', payload)
  }

  /** Counts what the follower will ignore or drop; the follower decides with the canonical height it knows. */
  private track(payload: FlashblockPayload): void {
    const verdict = classifyFlashblock(this.position, payload, -1n)
    if (verdict.kind === 'duplicate') this.stats.duplicates++
    else if (verdict.kind === 'break') {
      this.stats.sequenceBreaks++
      this.position = undefined
    } else this.position = { payloadId: payload.payloadId, number: payload.metadata.blockNumber, index: payload.index }
  }

  private armIdle(): void {
    clearTimeout(this.idleTimer)
    this.idleTimer = setTimeout(() => {
      if (!this.running || this.idle) return
      this.idle = true
      this.stats.idles++
      this.o.warn?.(`flashblocks feed ${this.o.url} idle for ${this.o.idleTimeoutMs} ms: pending falls back to latest`)
      this.emit('idle')
    }, this.o.idleTimeoutMs)
  }
}
