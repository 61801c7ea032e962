/**
 * A vitest reporter that ends the run with system-tools.ts's line: the groups skipped and how to enable them.
 * Printed as the process exits, so it is the last line, after the json reporter's own.
 */
import type { Reporter } from 'vitest/node'
import { missingToolsLine } from './system-tools.js'

export default class MissingToolsReporter implements Reporter {
  onTestRunEnd() {
    const line = missingToolsLine()
    if (line) process.once('exit', () => console.log(`\n${line}`))
  }
}
