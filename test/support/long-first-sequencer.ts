/**
 * The order vitest starts test files in: project by project (the `isolated` files, then `unpatched`, then
 * `patched`), and within a project the few long files first, then vitest's own order.
 *
 * A worker of a non-isolated project is kept for the next file only when the next file in the queue is of
 * the same project; otherwise it exits and the next file of its project starts a new worker, which loads
 * the modules again (@ethereumjs, viem, fastify, the service: seconds of CPU). vitest's own order puts
 * `isolated` first, but the long files put ahead of it meant the `patched` workers that ran them exited at
 * `isolated` and started again after it. The short projects go first, `patched` with its long files last:
 * each project's workers start once.
 *
 * Long files first: vitest runs the files that took longest last time first, but a fresh machine (CI) has
 * no last time and starts the largest files first; the longest files are short to read (one test of 22
 * restarts, a loop over fixture groups), so they started last and one of them ended the run alone on one
 * worker for a minute and more.
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

/** The projects of vitest.config.ts in the order they run: the short ones first (see above). */
const PROJECTS = ['isolated', 'unpatched', 'patched']

export class LongFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files)
    const project = (spec: TestSpecification) => {
      const i = PROJECTS.indexOf(spec.project.name)
      return i < 0 ? PROJECTS.length : i
    }
    const rank = (spec: TestSpecification) => {
      const i = LONG.findIndex((path) => spec.moduleId.endsWith(`/${path}`))
      return i < 0 ? LONG.length : i
    }
    // stable: the rest keep vitest's order
    return sorted
      .map((spec, i) => ({ spec, i }))
      .sort((a, b) => project(a.spec) - project(b.spec) || rank(a.spec) - rank(b.spec) || a.i - b.i)
      .map((x) => x.spec)
  }
}
