/**
 * SIGTERM as an orchestrator sends it (and SIGINT, Ctrl+C, the same): the CLI stops accepting, lets the request in flight finish (a send that
 * waits for its preconfirmation, which needs the chain to keep running while the server drains), closes
 * WebSockets with 1001 (going away) and exits 0 within 5 s.
 */
import type { ChildProcessWithoutNullStreams } from 'node:child_process'
import { once } from 'node:events'
import { afterEach, expect, test } from 'vitest'
import WebSocket from 'ws'
import { killLeftovers, runCli, waitForOutput } from '../support/cli-process.js'
import { BOB, signTransferToBob } from '../support/dev-keys.js'
import { post, request } from '../support/rpc.js'
import { until } from '../support/wait-for.js'

const children: ChildProcessWithoutNullStreams[] = []
afterEach(() => killLeftovers(children))

test.each(['SIGTERM', 'SIGINT'] as const)(
  '%s answers the request in flight, closes WebSockets with 1001 and exits 0 within 5 s',
  async (signal) => {
    // a flashblock every 2 s: the send below waits up to 2 s for its preconfirmation
    const { child, output, exited } = await runCli(
      ['--port', '0', '--block-time', '4', '--flashblock-interval', '2000'],
      children,
    )
    const [, url] = await waitForOutput(output, /POST (http:\/\/127\.0\.0\.1:\d+\/)\n/, exited)
    const base = new URL(url!)

    // the subscriber learns of the send's admission, which is when the request is surely in flight
    const socket = new WebSocket(`ws://${base.host}/flashblocks`)
    await once(socket, 'open')
    const closed = once(socket, 'close') as Promise<[number, Buffer]>
    const messages: { id?: number; result?: unknown; params?: { subscription: unknown; result: unknown } }[] = []
    socket.on('message', (raw) => messages.push(JSON.parse(raw.toString())))
    socket.send(JSON.stringify(request('eth_subscribe', ['newPendingTransactions'], 1)))
    socket.send(JSON.stringify(request('eth_subscribe', ['newFlashblocks'], 2)))
    await until(() => messages.some((m) => m.id === 2), 'the subscriptions')
    const subscriptionOf = (id: number) => messages.find((m) => m.id === id)?.result
    const noticesOf = (id: number) => messages.filter((m) => m.params?.subscription === subscriptionOf(id)).length

    // sent just after a flashblock, the send's preconfirmation is a whole interval away when the signal lands
    // (sent at a random moment, the next flashblock could answer it before the CLI has read the signal)
    const raw = await signTransferToBob()
    const flashblocksSeen = noticesOf(2)
    await until(() => noticesOf(2) > flashblocksSeen, 'a flashblock')
    const inFlight = post(new URL('/flashblocks', base).href, request('eth_sendRawTransactionSync', [raw]))
    await until(() => noticesOf(1) > 0, 'the admission notice')

    child.kill(signal)
    const [code, reason] = await closed
    expect(code).toBe(1001)
    expect(reason.toString()).toBe('server shutting down')
    const answer = await inFlight
    expect(answer.status).toBe(200)
    // the connection ends with its answer rather than idling until the keep-alive timeout
    expect(answer.headers.connection).toBe('close')
    expect(answer.json.result).toMatchObject({ status: '0x1', to: BOB.toLowerCase() })
    // 0 and nothing on stderr: closed by itself, not by the forced exit at SHUTDOWN_EXIT_MS (1, "still closing")
    expect(await exited).toBe(0)
    expect(output.stdout).toContain(`${signal}: closing`)
    expect(output.stderr).toBe('')
  },
  90_000,
)
