/**
 * Broadcasts feed messages to the clients of `/ws/flashblocks`. Each message is encoded once per framing in
 * use (JSON text, or brotli binary with the 0x1E prefix), never once per client; a framing nobody asked
 * for is not encoded at all.
 */
import { encodeBrotliFrame, encodeJsonFrame } from './codec.js'
import type { FeedMessage } from './wire.js'

/**
 * How a client gets frames: JSON text; brotli binary; or exactly as xlayer-reth's sequencer pipe carries them
 * (`?format=xlayer-reth`): each message inside its P2P `{"OpFlashblockPayload": ...}` envelope, 0x1E + brotli,
 * which an xlayer-reth node's `--xlayer.flashblocks-url` decodes (crates/flashblocks/src/ws/frame.rs).
 */
export type FeedFraming = 'json' | 'brotli' | 'xlayer-reth'

/** A feed client: takes a frame; text for JSON, binary for brotli. */
export interface FeedSink {
  send(frame: string | Buffer): void
}

/** A client as eth_flashblocksPeerStatus shows it: who, since when (ms), and when a frame last went to it. */
export interface FeedClientInfo {
  readonly peer: string
  readonly since: number
  lastSentAt?: number
}

interface Subscriber extends FeedClientInfo {
  readonly framing: FeedFraming
}

export class FeedPublisher {
  private readonly sinks = new Map<FeedSink, Subscriber>()

  /** `brotliPrefix`: mark brotli frames with 0x1E (X Layer's framing) or not (Base's). */
  constructor(private readonly brotliPrefix = true) {}

  /** `peer`: the client's address (ip:port), for eth_flashblocksPeerStatus. */
  add(sink: FeedSink, framing: FeedFraming, peer = 'unknown'): void {
    this.sinks.set(sink, { framing, peer, since: Date.now() })
  }

  /** The clients connected now. */
  clients(): readonly FeedClientInfo[] {
    return [...this.sinks.values()]
  }

  remove(sink: FeedSink): void {
    this.sinks.delete(sink)
  }

  /** Clients connected to the feed. */
  count(): number {
    return this.sinks.size
  }

  /** Sends a message to every client; `message` may be a thunk, so nothing is encoded when nobody listens. */
  publish(message: FeedMessage | (() => FeedMessage)): void {
    if (this.sinks.size === 0) return
    const value = typeof message === 'function' ? message() : message
    let json: string | undefined
    let brotli: Buffer | undefined
    let enveloped: Buffer | undefined
    const now = Date.now()
    // a sink may close (slow consumer) and remove itself while we iterate: iterate a copy
    for (const [sink, subscriber] of [...this.sinks]) {
      if (subscriber.framing === 'json') sink.send((json ??= encodeJsonFrame(value)))
      else if (subscriber.framing === 'brotli') sink.send((brotli ??= encodeBrotliFrame(value, this.brotliPrefix)))
      else sink.send((enveloped ??= encodeBrotliFrame({ OpFlashblockPayload: value })))
      subscriber.lastSentAt = now
    }
  }
}
