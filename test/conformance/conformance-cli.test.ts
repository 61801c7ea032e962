import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { runScript } from '../support/run-script.js'
import { startService, type RunningService } from '../../src/service.js'
import { waitForBlocks } from '../../src/conformance/session.js'
import document from '../../generated/openrpc.json' with { type: 'json' }

/** Every method of the document is counted, whichever branch added it. */
const METHODS = document.methods.length

/** `npm run conformance` as a user runs it. */
const conformance = (args: string[]) => runScript('src/conformance/cli.ts', args)

describe('npm run conformance', () => {
  let service: RunningService

  beforeAll(async () => {
    service = await startService({ port: 0, quiet: true, rateLimit: 0 })
    await waitForBlocks(service.url, 5)
  })
  afterAll(() => service?.close())

  test('passes against this service on both endpoints, printing a table by method, and exits 0', async () => {
    const { code, output: stdout } = await conformance([
      '--url',
      service.url,
      '--flashblocks-url',
      service.flashblocksUrl,
    ])
    expect(stdout).toMatch(/^method\s+passed\s+failed\s+skipped$/m)
    expect(stdout).toMatch(/^eth_getBalance\s+2\s+0\s+0$/m)
    expect(stdout).toMatch(new RegExp(`\\d+ passed, 0 failed, \\d+ skipped \\(\\d+ examples, ${METHODS} methods\\)`))
    expect(code).toBe(0)
  })

  test('exits 1 and names the failure when a node answers wrongly', async () => {
    // the flashblocks-only capability method asked of the general endpoint: the service rightly refuses it
    const { code, output: stdout } = await conformance([
      '--flashblocks-url',
      service.url,
      '--only',
      'op_supportedCapabilities',
    ])
    expect(stdout).toContain('FAIL  op_supportedCapabilities: flashblocks v1 [flashblocks]: error -32601')
    expect(code).toBe(1)
  })

  test('without a URL it prints the usage and exits 2', async () => {
    const { code, output: stdout } = await conformance([])
    expect(stdout).toContain('usage: npm run conformance -- --url')
    expect(code).toBe(2)
  })
})
