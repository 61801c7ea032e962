/**
 * One WebSocket connection: sends with a bound on unread bytes, and liveness for the keep-alive sweep.
 * A consumer that stops reading would make the server buffer without end; past the bound it is closed with
 * 1008 (policy violation) and a reason, its pending frames are dropped and nothing more is queued.
 */
import type { WebSocket } from 'ws'
import { WS_MAX_BUFFERED_BYTES } from '../limits.js'
import type { Endpoint } from '../../generated/methods.js'
import type { Subscriber } from '../subscriptions/types.js'

/** Close code for a consumer that does not read (RFC 6455 1008, policy violation). */
export const SLOW_CONSUMER_CLOSE_CODE = 1008

/** Close code when the server shuts down (RFC 6455 1001, going away): clients reconnect elsewhere. */
const GOING_AWAY_CLOSE_CODE = 1001

export interface ConnectionHooks {
  /** Called once when the connection stops (slow consumer, socket closed, keep-alive failed). */
  onGone(connection: WsConnection): void
}

export class WsConnection implements Subscriber {
  private alive = true
  private gone = false

  constructor(
    readonly socket: WebSocket,
    readonly endpoint: Endpoint,
    private readonly hooks: ConnectionHooks,
    private readonly maxBufferedBytes: number = WS_MAX_BUFFERED_BYTES,
  ) {
    socket.on('pong', () => {
      this.alive = true
    })
    socket.on('close', () => this.markGone())
    socket.on('error', () => this.markGone())
  }

  get isOpen(): boolean {
    return !this.gone && this.socket.readyState === this.socket.OPEN
  }

  /** Sends one frame (text for JSON, binary for a Buffer), or closes the connection when it is not reading. */
  send(frame: string | Buffer): void {
    if (!this.isOpen) return
    if (this.socket.bufferedAmount > this.maxBufferedBytes) {
      this.closeSlowConsumer()
      return
    }
    this.socket.send(frame)
  }

  /**
   * The close frame queues behind the unread bytes, so a client that resumes reading still learns why; ws
   * destroys the socket if the handshake does not finish within its close timeout (30 s), which bounds memory.
   */
  closeSlowConsumer(): void {
    if (this.gone) return
    this.socket.close(SLOW_CONSUMER_CLOSE_CODE, `slow consumer: more than ${this.maxBufferedBytes} bytes unread`)
    this.markGone()
  }

  /** Starts the close handshake because the server is shutting down. */
  goAway(): void {
    if (this.isOpen) this.socket.close(GOING_AWAY_CLOSE_CODE, 'server shutting down')
  }

  /** One keep-alive round: a socket that did not answer the previous ping is terminated. */
  heartbeat(): void {
    if (this.gone) return
    if (!this.alive) {
      this.socket.terminate()
      this.markGone()
      return
    }
    this.alive = false
    this.socket.ping()
  }

  private markGone(): void {
    if (this.gone) return
    this.gone = true
    this.hooks.onGone(this)
  }
}
