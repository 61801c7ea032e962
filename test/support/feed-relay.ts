/**
 * A relay of a real flashblocks feed (a leader's /ws/flashblocks) that a test can stop at a chosen frame:
 * every frame passes until `holdFrom` matches one; that frame and all after it wait, in order, until
 * release(). A test holds the frame with its transaction, freezes the leader, then lets the frame through,
 * so the follower has the frame while the upstream it re-executes on answers nothing.
 */
import WebSocket from 'ws'
import { decodeFrame } from '../../src/feed/codec.js'
import { decodeFlashblock } from '../../src/feed/decode.js'
import { type FeedMessage, isEndOfBlock } from '../../src/feed/wire.js'
import type { FlashblockPayload } from '../../src/domain/types.js'
import { startTestFeed } from './test-feed.js'

export interface FeedRelay {
  /** ws://127.0.0.1:<port>/ for the follower's `--upstream-feed`. */
  readonly url: string
  /** Resolves with the first frame `holdFrom` matched. */
  readonly held: Promise<FlashblockPayload>
  /** Until the follower is connected. */
  connected(): Promise<void>
  /** Sends the held frames on; frames after pass again. */
  release(): void
  close(): Promise<void>
}

/** `holdFrom` runs when the frame arrives, before anything else happens: the place to freeze its sender. */
export async function startFeedRelay(
  source: string,
  holdFrom: (payload: FlashblockPayload) => boolean,
): Promise<FeedRelay> {
  const feed = await startTestFeed()
  let hold = holdFrom
  const socket = new WebSocket(source)
  let waiting: FeedMessage[] | undefined
  let onHeld: (payload: FlashblockPayload) => void = () => {}
  const held = new Promise<FlashblockPayload>((resolve) => (onHeld = resolve))
  socket.on('message', (data, isBinary) => {
    const message = decodeFrame(isBinary ? (data as Buffer) : data.toString())
    if (!waiting && !isEndOfBlock(message)) {
      const payload = decodeFlashblock(message)
      if (hold(payload)) {
        waiting = []
        onHeld(payload)
      }
    }
    if (waiting) waiting.push(message)
    else feed.send(message)
  })
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject))
  return {
    url: feed.url,
    held,
    connected: () => feed.connected(),
    release() {
      for (const message of waiting ?? []) feed.send(message)
      waiting = undefined
      // holds only once
      hold = () => false
    },
    async close() {
      socket.terminate()
      await feed.close()
    },
  }
}
