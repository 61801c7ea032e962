import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'codegen/**/*.test.ts', 'test/**/*.test.ts', 'generated/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // the embedded chain is CPU-bound; two cores, so keep files from starving each other's sequencers
    maxWorkers: 2,
    // CI reads the JSON report to print its one-line summary; a machine without some Debian packages ends
    // with one line saying which groups it skipped and how to enable them
    reporters: ['default', 'json', './test/support/missing-tools-reporter.ts'],
    outputFile: { json: 'test-results/vitest.json' },
  },
})
