/**
 * The JSON-RPC POSTs' replies are written together, once the event loop has read every request that came in
 * with them (its check phase), not one by one as each is answered. On loopback, and on any host whose client
 * waits in epoll, each write wakes the client; while the server is the busier side the client sleeps between
 * replies, so every reply paid a wake-up (an inter-processor interrupt on a VM: `sock_def_readable` under
 * writev was 8 µs of a 57 µs eth_getBalance under `perf`, the bare node:http floor's 4 µs of 43). Written
 * together, one wake-up serves them all: at 16 connections the client's context switches per request halved
 * and our CPU per request fell by about a quarter (bench/README.md). A reply waits at most for the requests
 * read in the same turn; the loop does not block while an immediate is pending.
 */
import type { ServerResponse } from 'node:http'
// the module's own binding: a test's fake timers replace the global's only
import { setImmediate } from 'node:timers'
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
