import { configDefaults, defineConfig } from 'vitest/config'
import { LongFirstSequencer } from './test/support/long-first-sequencer.js'

/** The tests that hold the call path to runTx's (and to anvil): run again with @ethereumjs unpatched. */
const DIFFERENTIAL = [
  'test/differential/**/*.test.ts',
  'src/evm/execution/fast-call.test.ts',
  'src/evm/patches/sync-gas.test.ts',
  'src/evm/patches/word-opcodes.test.ts',
  'src/evm/patches/install.test.ts',
]

const ALL = ['src/**/*.test.ts', 'codegen/**/*.test.ts', 'test/**/*.test.ts', 'generated/**/*.test.ts']

/** Files that replace something process-wide (a spy on performance.now, on a prototype): each in a fresh worker. */
const ISOLATED = ['src/evm/execution/call-budget.test.ts', 'test/follower/feed-client.test.ts']

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // three on two cores: files spend part of their time waiting on the servers and processes they start, so a
    // third worker fills those gaps (quiet 2-core machine, cold: 2 workers 319 s, 3 workers 278 s); more starve
    // each other's sequencers
    maxWorkers: 3,
    // A worker runs file after file of its project without reloading the modules (@ethereumjs, viem, fastify,
    // the service) nor re-running the EVM patches' install, ~1 s of CPU a file: every file closes what it
    // starts, no support module keeps state, and the few files that swap something process-wide run isolated.
    isolate: false,
    // a fresh machine has no durations of a last run: the few long files first, so none ends the run alone
    sequence: { sequencer: LongFirstSequencer },
    // CI reads the JSON report to print its one-line summary (one report for all projects); a machine
    // without some Debian packages ends with one line saying which groups it skipped and how to enable them
    reporters: ['default', 'json', './test/support/missing-tools-reporter.ts'],
    outputFile: { json: 'test-results/vitest.json' },
    projects: [
      {
        extends: true,
        test: {
          name: 'patched',
          include: ALL,
          exclude: [...configDefaults.exclude, ...ISOLATED],
          setupFiles: ['test/support/evm-patches.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'isolated',
          include: ISOLATED,
          isolate: true,
          setupFiles: ['test/support/evm-patches.ts'],
        },
      },
      {
        // the patches on the call path's EVMs only: runTx's side of each comparison is shipped code
        extends: true,
        test: { name: 'unpatched', include: DIFFERENTIAL, setupFiles: ['test/support/evm-unpatched.ts'] },
      },
    ],
  },
})
