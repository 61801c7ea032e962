/**
 * `npm run rpc-compat -- --tests DIR --url URL [--spec DIR] [--verbose] [--request-timeout MS]`: runs
 * execution-apis' rpc-compat tests (DIR as its `tests/`) against a running node and prints passed/failed per
 * method and the total; `--verbose` also prints each failure's reason; `--request-timeout` is each request's
 * limit (default hive's 5000; 0 = none, for a node started with `--rpc.evmtimeout 0`). The spec defaults to DIR/spec (the copy in
 * test/fixtures/rpc-compat). Exits 1 when a test fails.
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { loadIoTests } from './io-file.js'
import { formatReport, REQUEST_TIMEOUT_MS, runRpcCompat } from './runner.js'
import { ExecutionApisSpec } from './spec.js'

const { values } = parseArgs({
  options: {
    tests: { type: 'string' },
    url: { type: 'string' },
    spec: { type: 'string' },
    verbose: { type: 'boolean' },
    'request-timeout': { type: 'string' },
  },
})
const timeoutMs = Number(values['request-timeout'] ?? REQUEST_TIMEOUT_MS)
if (!values.tests || !values.url || !Number.isInteger(timeoutMs) || timeoutMs < 0) {
  console.error('usage: npm run rpc-compat -- --tests DIR --url URL [--spec DIR] [--verbose] [--request-timeout MS]')
  process.exit(2)
}
const specDir = values.spec ?? join(values.tests, 'spec')
const spec = existsSync(specDir) ? new ExecutionApisSpec(specDir) : undefined
if (!spec) console.warn(`no execution-apis spec at ${specDir}: speconly tests pass on any result`)
const report = await runRpcCompat(loadIoTests(values.tests), values.url, spec, timeoutMs)
if (values.verbose) for (const r of report.results) if (!r.passed) console.log(`FAIL ${r.name}: ${r.reason}`)
console.log(formatReport(report))
process.exit(report.failed > 0 ? 1 : 0)
