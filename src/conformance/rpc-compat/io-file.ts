/**
 * The `.io` test files of ethereum/execution-apis `tests/` (the fixtures of hive's rpc-compat simulator):
 * `>> request` / `<< response` lines in order, `//` comment lines (the first ones describe the test; one
 * containing `speconly` says the response is only checked against the method's schema), blank lines.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

interface RoundTrip {
  readonly request: string
  readonly response: string
}

export interface IoTest {
  /** `method/file-name` without `.io`. */
  readonly name: string
  /** The directory's name: the method under test. */
  readonly method: string
  readonly specOnly: boolean
  readonly roundTrips: readonly RoundTrip[]
}

function parseIoFile(name: string, method: string, text: string): IoTest {
  const roundTrips: RoundTrip[] = []
  let specOnly = false
  let request: string | undefined
  for (const line of text.split('\n')) {
    if (line.startsWith('//')) specOnly ||= line.includes('speconly')
    else if (line.startsWith('>> ')) request = line.slice(3)
    else if (line.startsWith('<< ')) {
      if (request === undefined) throw new Error(`${name}: a response without a request`)
      roundTrips.push({ request, response: line.slice(3) })
      request = undefined
    } else if (line.trim() !== '') throw new Error(`${name}: unexpected line "${line.slice(0, 40)}"`)
  }
  return { name, method, specOnly, roundTrips }
}

/** Every `DIR/<method>/<test>.io`, sorted by method and then name (hive's order). */
export function loadIoTests(dir: string): IoTest[] {
  const tests: IoTest[] = []
  const methods = readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory() && e.name !== 'spec')
  for (const method of methods.map((e) => e.name).sort()) {
    for (const file of readdirSync(join(dir, method)).sort()) {
      if (!file.endsWith('.io')) continue
      const text = readFileSync(join(dir, method, file), 'utf8')
      tests.push(parseIoFile(`${method}/${file.slice(0, -3)}`, method, text))
    }
  }
  return tests
}
