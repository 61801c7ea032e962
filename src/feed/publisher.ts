/**
 * Broadcasts feed messages to the clients of `/ws/flashblocks`. Each message is encoded once per framing in
 * use (JSON text, or brotli binary with the 0x1E prefix), never once per client; a framing nobody asked
 * for is not encoded at all.
 */
import { encodeBrotliFrame, encodeJsonFrame } from './codec.js'
import type { FeedMessage } from './wire.js'

export type FeedFraming = 'json' | 'brotli'

/** A feed client: takes a frame; text for JSON, binary for brotli. */
export interface FeedSink {
  send(frame: string | Buffer): void
}

export class FeedPublisher {
  private readonly sinks = new Map<FeedSink, FeedFraming>()

  /** `brotliPrefix`: mark brotli frames with 0x1E (X Layer's framing) or not (Base's). */
  constructor(private readonly brotliPrefix = true) {}

  add(sink: FeedSink, framing: FeedFraming): void {
    this.sinks.set(sink, framing)
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
    // a sink may close (slow consumer) and remove itself while we iterate: iterate a copy
    for (const [sink, framing] of [...this.sinks]) {
      if (framing === 'json') sink.send((json ??= encodeJsonFrame(value)))
      else sink.send((brotli ??= encodeBrotliFrame(value, this.brotliPrefix)))
    }
  }
}
