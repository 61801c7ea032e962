/** Runs every case of the document (or one method's) in order against a node. */
import { conformanceCases } from '../../generated/conformance.js'
import type { CaseResult } from './report.js'
import { ConformanceSession, type Urls } from './session.js'

export async function runConformance(urls: Urls, only?: string): Promise<CaseResult[]> {
  const session = new ConformanceSession(urls)
  const results: CaseResult[] = []
  try {
    for (const c of conformanceCases) {
      if (only !== undefined && c.method !== only) continue
      results.push({ case: c, outcome: await session.run(c) })
    }
  } finally {
    session.close()
  }
  return results
}
