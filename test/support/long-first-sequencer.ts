/**
 * The order vitest starts test files in: the few long files first, then vitest's own order. vitest runs the
 * files that took longest last time first, but a fresh machine (CI) has no last time and starts the largest
 * files first; the longest files are short to read (one test of 22 restarts, a loop over fixture groups), so
 * they started last and one of them ended the run alone on one worker for a minute and more.
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node'

/** The files that take ~15 s and more of a worker (the longest first), as measured on 2 cores. */
const LONG = [
  'test/durability/crash.test.ts',
  'test/evm-state/state-tests.test.ts',
  'test/hostile/soak.test.ts',
  'test/evm-state/interpreter.test.ts',
  'test/cli/command-line.test.ts',
  'test/durability/bad-input.test.ts',
  'test/hostile/fuzz.test.ts',
  'codegen/generate.test.ts',
  'test/cli/graceful-shutdown.test.ts',
]

export class LongFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files)
    const rank = (spec: TestSpecification) => {
      const i = LONG.findIndex((path) => spec.moduleId.endsWith(`/${path}`))
      return i < 0 ? LONG.length : i
    }
    // stable: the rest keep vitest's order
    return sorted
      .map((spec, i) => ({ spec, i }))
      .sort((a, b) => rank(a.spec) - rank(b.spec) || a.i - b.i)
      .map((x) => x.spec)
  }
}
