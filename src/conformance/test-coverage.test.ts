import { execFile } from 'node:child_process'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startService, type RunningService } from '../service.js'
import { waitForBlocks } from './session.js'

const run = promisify(execFile)
const root = join(import.meta.dirname, '..', '..')

describe('npm run test-coverage (@open-rpc/test-coverage with the service\'s own documents)', () => {
  let service: RunningService

  beforeAll(async () => {
    service = await startService({ port: 0, quiet: true, rateLimit: 0 })
    await waitForBlocks(service.url, 5)
  })
  afterAll(() => service?.close())

  test('every example call of both endpoints\' documents is valid and the script exits 0', async () => {
    const outcome = await run(process.execPath, ['--import', 'tsx', join(root, 'src', 'conformance', 'test-coverage.ts'), '--url', service.url], { cwd: root, maxBuffer: 64 * 1024 * 1024 })
      .then(({ stdout }) => ({ code: 0, stdout }), (err: { code: number; stdout: string }) => ({ code: err.code, stdout: err.stdout }))
    const summary = /test-coverage: (\d+) of (\d+) example calls valid/.exec(outcome.stdout)
    expect(summary, outcome.stdout.slice(-4000)).not.toBeNull()
    expect(Number(summary![2])).toBeGreaterThan(60)
    expect(summary![1], outcome.stdout.slice(-4000)).toBe(summary![2])
    expect(outcome.code).toBe(0)
  }, 60_000)
})
