/**
 * Where the test files are (vitest.config.ts's projects include them): one list for the config and for the
 * run summaries (scripts/test-report.ts), which name the files a run never reported.
 */
export const TEST_FILES = ['src/**/*.test.ts', 'codegen/**/*.test.ts', 'test/**/*.test.ts', 'generated/**/*.test.ts']
