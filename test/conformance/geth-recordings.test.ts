/**
 * Our OpenRPC document against real geth traffic: every request and answer execution-apis recorded from
 * geth (test/fixtures/rpc-compat, the rpc-compat suite's .io files) for a method we serve must pass our
 * generated validators: the params geth accepted, the results it gave. A schema stricter than geth (a
 * receipt without `status`, a call object with blob fields) fails here, naming the recording.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { describe, expect, test } from 'vitest'
import { type MethodName, methodTable } from '../../generated/methods.js'
import * as validators from '../../generated/validators.js'
import type { Validator } from '../../src/validation/check-params.js'
import { describeValidationErrors } from '../../src/validation/describe-error.js'

const DIR = new URL('../fixtures/rpc-compat/', import.meta.url)

interface RoundTrip {
  file: string
  method: string
  params: unknown[]
  reply: { result?: unknown; error?: unknown }
}

/** Each `>>` request with the `<<` answer after it, as hive's rpc-compat reads them. */
function recordings(): RoundTrip[] {
  const trips: RoundTrip[] = []
  for (const method of readdirSync(DIR, { withFileTypes: true }).filter((d) => d.isDirectory())) {
    for (const name of readdirSync(new URL(`${method.name}/`, DIR)).filter((f) => f.endsWith('.io'))) {
      const file = `${method.name}/${name}`
      let request: { method: string; params?: unknown[] } | undefined
      for (const line of readFileSync(new URL(file, DIR), 'utf8').split('\n')) {
        if (line.startsWith('>> ')) request = JSON.parse(line.slice(3))
        if (line.startsWith('<< ') && request)
          trips.push({ file, method: request.method, params: request.params ?? [], reply: JSON.parse(line.slice(3)) })
      }
    }
  }
  return trips
}

describe('geth’s recorded answers (execution-apis tests/) pass our schemas', () => {
  const trips = recordings()
  const served = trips.filter((t) => t.method in methodTable)

  test('the recordings are there and most of them are of methods we serve', () => {
    expect(trips.length).toBeGreaterThan(230)
    expect(served.length).toBeGreaterThan(130)
  })

  test('every request geth answered has params our validators accept', () => {
    const refused = served
      .filter((t) => t.reply.error === undefined)
      .map((t) => [t.file, methodTable[t.method as MethodName].checkParams(t.params)])
      .filter(([, problem]) => problem !== undefined)
    expect(refused).toEqual([])
  })

  test('every result geth gave passes our result schema', () => {
    const refused = served
      .filter((t) => 'result' in t.reply)
      .map((t) => {
        const target = methodTable[t.method as MethodName].target
        const validate = (validators as Record<string, Validator>)[`${target}_result`]!
        return [t.file, validate(t.reply.result) ? undefined : describeValidationErrors(validate.errors)]
      })
      .filter(([, problem]) => problem !== undefined)
    expect(refused).toEqual([])
  })
})
