/**
 * The conformance cases as a vitest suite against this service: generated/conformance.test.ts calls it
 * with the document's cases, one test per case named by its id. A case the runner skips (another chain's
 * object) is reported as skipped, any other outcome but `passed` fails with the runner's reason.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startService, type RunningService } from '../service.js'
import type { ConformanceCase } from './case.js'
import { ConformanceSession, waitForBlocks } from './session.js'

/** The examples name blocks up to 0x4. */
const BLOCKS_NAMED = 5

export function describeConformance(cases: readonly ConformanceCase[]): void {
  describe("the document's examples against this service", () => {
    let service: RunningService
    let session: ConformanceSession

    beforeAll(async () => {
      service = await startService({ port: 0, quiet: true, rateLimit: 0 })
      session = new ConformanceSession({ general: service.url, flashblocks: service.flashblocksUrl })
      await waitForBlocks(service.url, BLOCKS_NAMED)
    })
    afterAll(async () => {
      session?.close()
      await service?.close()
    })

    for (const c of cases) {
      test(c.id, async (context) => {
        const outcome = await session.run(c)
        if (outcome.status === 'skipped') context.skip(outcome.reason)
        expect(outcome.status, outcome.reason).toBe('passed')
      })
    }
  })
}
