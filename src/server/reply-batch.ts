/**
 * The JSON-RPC POSTs' replies are written together, once the event loop has read every request that came in
 * with them (its check phase), not one by one as each is answered. Each write wakes a client waiting in epoll;
 * while the server is the busier side the client sleeps between replies, so every reply paid a wake-up (on
 * this VM an inter-processor interrupt: `sock_def_readable` under writev was 8 µs of a 57 µs eth_getBalance
 * in a `perf` profile at 16 connections, 4 µs of the bare node:http floor's 43). Written together, one
 * wake-up serves the turn's replies: the client's context switches per request halved (0.27 against 0.50-0.54)
 * and our CPU per eth_getBalance fell from 52-63 to 39-43 µs, rounds alternating at load 15. A reply waits at
 * most for the requests read in the same turn: the loop does not block while an immediate is pending.
 */
import type { ServerResponse } from 'node:http'
import { type RawReplyOptions, writeRaw } from './json-reply.js'

interface Reply {
  res: ServerResponse
  status: number
  text: string | undefined
  options: RawReplyOptions
  onFault: (err: unknown, what: string) => void
}

let waiting: Reply[] = []

function writeWaiting(): void {
  const replies = waiting
  waiting = []
  for (const { res, status, text, options, onFault } of replies) {
    // one reply that cannot be written must not leave the others' clients waiting
    try {
      writeRaw(res, status, text, options)
    } catch (err) {
      onFault(err, 'reply could not be written')
    }
  }
}

/**
 * writeRaw's reply, written with every other reply of this turn of the event loop; `onFault` is told if it
 * cannot be (a bug of ours: the headers were sent already).
 */
export function writeInTurn(
  res: ServerResponse,
  status: number,
  text: string | undefined,
  options: RawReplyOptions,
  onFault: (err: unknown, what: string) => void,
): void {
  if (waiting.length === 0) setImmediate(writeWaiting)
  waiting.push({ res, status, text, options, onFault })
}
