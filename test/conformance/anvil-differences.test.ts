/**
 * The conformance suite against anvil: the methods that fail there are exactly the ones docs/conformance.md
 * lists, so the suite checks the standard (anvil agrees on everything else) and the document of
 * differences stays true.
 */
import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { failedMethods, formatReport, totals, type CaseResult } from '../../src/conformance/report.js'
import { runConformance } from '../../src/conformance/run.js'
import { waitForBlocks } from '../../src/conformance/session.js'
import { type RunningAnvil, startAnvil } from '../support/anvil.js'

/** The first column of the table in docs/conformance.md. */
function documentedDifferences(): string[] {
  const text = readFileSync(new URL('../../docs/conformance.md', import.meta.url), 'utf8')
  return [...text.matchAll(/^\| `([^`]+)` \|/gm)].map((match) => match[1]!).sort()
}

/** The figure docs/conformance.md gives: "(P of the N; ...": examples passing on anvil, of all the examples. */
function documentedAgreement(): { passed: number; examples: number } {
  const text = readFileSync(new URL('../../docs/conformance.md', import.meta.url), 'utf8')
  const [, passed, examples] = /\((\d+) of\s+the (\d+);/.exec(text) ?? []
  return { passed: Number(passed), examples: Number(examples) }
}

describe('the conformance suite against anvil', () => {
  let anvil: RunningAnvil
  let results: CaseResult[]

  beforeAll(async () => {
    anvil = await startAnvil(['--block-time', '0.2'])
    await waitForBlocks(anvil.url, 5)
    results = await runConformance({ general: anvil.url })
  }, 120_000)
  afterAll(() => anvil?.close())

  test('fails on exactly the methods docs/conformance.md lists', () => {
    expect(documentedDifferences().length).toBeGreaterThan(0)
    expect(failedMethods(results), formatReport(results)).toEqual(documentedDifferences())
  })

  test('agrees with anvil on most of the document', () => {
    const sum = totals(results)
    // geth-only methods (debug_getRaw*, txpool_contentFrom, eth_capabilities, ...) count as failures on anvil
    expect(sum.passed).toBeGreaterThan(sum.failed * 4)
    expect({ passed: sum.passed, examples: results.length }, 'the figure in docs/conformance.md').toEqual(
      documentedAgreement(),
    )
  })
})
