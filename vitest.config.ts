import { configDefaults, defineConfig } from 'vitest/config'
import { LongFirstSequencer } from './test/support/long-first-sequencer.js'
import { TEST_FILES } from './test/support/test-files.js'

/** The tests that hold the call path to runTx's (and to anvil): run again with @ethereumjs unpatched. */
const DIFFERENTIAL = [
  'test/differential/**/*.test.ts',
  'src/evm/execution/fast-call.test.ts',
  'src/evm/patches/sync-gas.test.ts',
  'src/evm/patches/word-opcodes.test.ts',
  'src/evm/patches/install.test.ts',
]

/**
 * Files that replace something process-wide (a spy on performance.now, on a prototype; a vi.mock, which a
 * worker that already loaded the module would not see): each in a fresh worker. A limit a test wants smaller
 * is an option of what owns it (the chain's liveStateCachedEntries), not a mock of src/limits.ts.
 */
const ISOLATED = ['src/evm/execution/call-budget.test.ts', 'test/follower/feed-client.test.ts']

/** Every project's first set-up file: a worker that ends mid-run says how and where (the file says why). */
const WORKER_WATCH = 'test/support/worker-watch.ts'

export default defineConfig({
  test: {
    // a net for a hang, not a deadline: CPU-bound tests of fixed work (a 20 000-account pruning, 8 192 WebAssembly
    // modules, 10 000 fuzzed requests, generating twice) took 26-28 s of a cold run at load 6-9 and 32-47 s beside
    // the stress run's two hogs and a CI clone; what a test waits for is driven by events and budgets it owns
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // three on two cores: the files wait on servers, processes and timers as much as they compute, and an idle
    // machine's cold npm test took 278 s with three against 319 s with two. Beside two CPU hogs three first
    // failed on races the extra load exposed, each fixed at its cause: nginx losing the port freePort() gave it
    // (scripts/cluster/ports.ts), a 100 ms block timer overtaking a --history window, soak's refused sends all
    // retrying on every flashblock (34 000 sends in 207 s, now 5 600 in 108 s)
    maxWorkers: 3,
    // A worker runs file after file of its project without reloading the modules (@ethereumjs, viem, fastify,
    // the service) nor re-running the EVM patches' install, ~1 s of CPU a file: every file closes what it
    // starts, no support module keeps state, and the few files that swap something process-wide run isolated.
    isolate: false,
    // a fresh machine has no durations of a last run: the few long files first, so none ends the run alone
    sequence: { sequencer: LongFirstSequencer },
    // a worker that V8 itself ends (out of memory, a failed check) writes why there: CI's summary prints it
    execArgv: ['--report-on-fatalerror', '--report-directory=test-results/node-reports'],
    // CI reads the JSON report to print its one-line summary (one report for all projects); a machine
    // without some Debian packages ends with one line saying which groups it skipped and how to enable them
    reporters: ['default', 'json', './test/support/missing-tools-reporter.ts'],
    outputFile: { json: 'test-results/vitest.json' },
    projects: [
      {
        extends: true,
        test: {
          name: 'patched',
          include: TEST_FILES,
          exclude: [...configDefaults.exclude, ...ISOLATED],
          setupFiles: [WORKER_WATCH, 'test/support/evm-patches.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'isolated',
          include: ISOLATED,
          isolate: true,
          setupFiles: [WORKER_WATCH, 'test/support/evm-patches.ts'],
        },
      },
      {
        // the patches on the call path's EVMs only: runTx's side of each comparison is shipped code
        extends: true,
        test: { name: 'unpatched', include: DIFFERENTIAL, setupFiles: [WORKER_WATCH, 'test/support/evm-unpatched.ts'] },
      },
    ],
  },
})
