/**
 * Feed framing. We send plain JSON text frames, or brotli binary frames when a client asks: prefixed with
 * 0x1E as xlayer-reth frames them (quality 5, lgwin 22), or bare as Base's websocket-proxy does. The decoder is tolerant, as a follower must be of
 * real feeds: plain JSON, brotli with or without the 0x1E prefix, text or binary frames, and the
 * `{"OpFlashblockPayload": ...}` wrapper of xlayer-reth's internal pipe.
 */
import { brotliCompressSync, brotliDecompressSync, constants } from 'node:zlib'
import type { FeedMessage } from './wire.js'

/** ASCII Record Separator: marks a brotli frame. */
export const BROTLI_FRAME_PREFIX = 0x1e

const BROTLI_PARAMS = {
  [constants.BROTLI_PARAM_QUALITY]: 5,
  [constants.BROTLI_PARAM_LGWIN]: 22,
}

export function encodeJsonFrame(message: FeedMessage): string {
  return JSON.stringify(message)
}

/** `prefix`: X Layer's 0x1E marker; Base's websocket-proxy sends bare brotli. */
export function encodeBrotliFrame(message: FeedMessage | { OpFlashblockPayload: FeedMessage }, prefix = true): Buffer {
  const body = brotliCompressSync(Buffer.from(JSON.stringify(message)), { params: BROTLI_PARAMS })
  return prefix ? Buffer.concat([Buffer.of(BROTLI_FRAME_PREFIX), body]) : body
}

export class FeedDecodeError extends Error {}

/**
 * Decodes one frame of any framing we know into a message: a payload (checked field by field by
 * decodeFlashblock) or, when it has a payload id and neither index nor diff, X Layer's end-of-block
 * message. Throws FeedDecodeError for anything else.
 */
export function decodeFrame(frame: string | Uint8Array): FeedMessage {
  const text = typeof frame === 'string' ? frame : frameText(frame)
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    throw new FeedDecodeError('feed frame is not JSON')
  }
  // xlayer-reth's pipe wraps each message in its P2P Message enum, externally tagged
  if (value && typeof value === 'object' && 'OpFlashblockPayload' in value)
    value = (value as { OpFlashblockPayload: unknown }).OpFlashblockPayload
  if (!value || typeof value !== 'object' || typeof (value as { payload_id?: unknown }).payload_id !== 'string') {
    throw new FeedDecodeError('feed message has no payload_id')
  }
  const message = value as Record<string, unknown>
  if (!('index' in message) && !('diff' in message)) return { payload_id: message.payload_id } as FeedMessage
  if (typeof message.index !== 'number') throw new FeedDecodeError('feed message has no numeric index')
  if (!message.diff || typeof message.diff !== 'object') throw new FeedDecodeError('feed message has no diff')
  return message as unknown as FeedMessage
}

function frameText(bytes: Uint8Array): string {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const first = buf.findIndex((b) => b !== 0x20 && b !== 0x0a && b !== 0x0d && b !== 0x09)
  if (first >= 0 && buf[first] === 0x7b) return buf.toString('utf8') // '{': plain JSON in a binary frame
  const body = buf[0] === BROTLI_FRAME_PREFIX ? buf.subarray(1) : buf
  try {
    return brotliDecompressSync(body).toString('utf8')
  } catch {
    throw new FeedDecodeError('feed frame is neither JSON nor brotli')
  }
}
