import { defineConfig } from 'vitest/config'

/** The tests that hold the call path to runTx's (and to anvil): run again with @ethereumjs unpatched. */
const DIFFERENTIAL = [
  'test/differential/**/*.test.ts',
  'src/evm/execution/fast-call.test.ts',
  'src/evm/patches/sync-gas.test.ts',
  'src/evm/patches/word-opcodes.test.ts',
  'src/evm/patches/install.test.ts',
]

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // the embedded chain is CPU-bound; two cores, so keep files from starving each other's sequencers
    maxWorkers: 2,
    // CI reads the JSON report to print its one-line summary (one report for both projects); a machine
    // without some Debian packages ends with one line saying which groups it skipped and how to enable them
    reporters: ['default', 'json', './test/support/missing-tools-reporter.ts'],
    outputFile: { json: 'test-results/vitest.json' },
    projects: [
      {
        extends: true,
        test: {
          name: 'patched',
          include: ['src/**/*.test.ts', 'codegen/**/*.test.ts', 'test/**/*.test.ts', 'generated/**/*.test.ts'],
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
