import type { ServerResponse } from 'node:http'
import { describe, expect, test } from 'vitest'
import { writeInTurn } from './reply-batch.js'

/** A stand-in response that logs what is written on it; `throws` makes its writeHead fail. */
function response(name: string, log: string[], throws = false): ServerResponse {
  const res = {
    writeHead: (status: number) => {
      if (throws) throw new Error(`${name}: headers already sent`)
      log.push(`${name} ${status}`)
      return res
    },
    end: (text?: string) => log.push(`${name} ${text ?? ''}`),
  }
  return res as unknown as ServerResponse
}

/** After the check phase the replies were queued in (an immediate set later runs after theirs). */
const afterTurn = () => new Promise<void>((resolve) => setImmediate(resolve))

describe('replies written in turn', () => {
  test('replies answered in one turn of the event loop are written after it, together, in the order answered', async () => {
    const log: string[] = []
    const faults: unknown[] = []
    const onFault = (err: unknown) => faults.push(err)
    writeInTurn(response('a', log), 200, '{"id":1}', {}, onFault)
    writeInTurn(response('b', log), 429, '{"id":2}', { close: true }, onFault)
    writeInTurn(response('c', log), 200, undefined, {}, onFault)
    expect(log).toEqual([])
    await afterTurn()
    expect(log).toEqual(['a 200', 'a {"id":1}', 'b 429', 'b {"id":2}', 'c 200', 'c '])
    expect(faults).toEqual([])
  })

  test('a reply that cannot be written is told to its fault handler, and the rest of its turn is still written', async () => {
    const log: string[] = []
    const faults: string[] = []
    const onFault = (err: unknown, what: string) => faults.push(`${(err as Error).message}: ${what}`)
    writeInTurn(response('a', log), 200, '{"id":1}', {}, onFault)
    writeInTurn(response('b', log, true), 200, '{"id":2}', {}, onFault)
    writeInTurn(response('c', log), 200, '{"id":3}', {}, onFault)
    await afterTurn()
    expect(log).toEqual(['a 200', 'a {"id":1}', 'c 200', 'c {"id":3}'])
    expect(faults).toEqual(['b: headers already sent: reply could not be written'])
  })

  test('a reply answered in a later turn is written after that turn', async () => {
    const log: string[] = []
    writeInTurn(response('a', log), 200, '1', {}, () => {})
    await afterTurn()
    writeInTurn(response('b', log), 200, '2', {}, () => {})
    expect(log).toEqual(['a 200', 'a 1'])
    await afterTurn()
    expect(log).toEqual(['a 200', 'a 1', 'b 200', 'b 2'])
  })
})
