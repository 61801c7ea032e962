import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { runScript } from '../support/run-script.js'
import { startService, type RunningService } from '../../src/service.js'
import { waitForBlocks } from '../../src/conformance/session.js'

describe("npm run test-coverage (@open-rpc/test-coverage with the service's own documents)", () => {
  let service: RunningService

  beforeAll(async () => {
    service = await startService({ port: 0, quiet: true, rateLimit: 0 })
    await waitForBlocks(service.url, 5)
  })
  afterAll(() => service?.close())

  test("every example call of both endpoints' documents is valid and the script exits 0", async () => {
    const { code, output } = await runScript('src/conformance/test-coverage.ts', ['--url', service.url])
    const outcome = { code, stdout: output }
    const summary = /test-coverage: (\d+) of (\d+) example calls valid/.exec(outcome.stdout)
    expect(summary, outcome.stdout.slice(-4000)).not.toBeNull()
    expect(Number(summary![2])).toBeGreaterThan(60)
    expect(summary![1], outcome.stdout.slice(-4000)).toBe(summary![2])
    expect(outcome.code).toBe(0)
  }, 60_000)
})
