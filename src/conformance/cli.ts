/**
 * `npm run conformance -- --url http://host:port [--flashblocks-url http://host:port/flashblocks]`:
 * runs every example of the OpenRPC document against a node, prints the table, exits 1 on any failure.
 * Run it against a fresh node: the send examples submit transactions of the default dev accounts.
 */
import { parseArgs } from 'node:util'
import { formatReport, totals } from './report.js'
import { runConformance } from './run.js'

const USAGE =
  'usage: npm run conformance -- --url <http url of the general endpoint> [--flashblocks-url <url>] [--only <method>]'

function parseOptions(argv: string[]) {
  const options = { url: { type: 'string' }, 'flashblocks-url': { type: 'string' }, only: { type: 'string' } } as const
  return parseArgs({ args: argv, options, strict: true }).values
}

async function main(argv: string[]): Promise<number> {
  let values: ReturnType<typeof parseOptions>
  try {
    values = parseOptions(argv)
  } catch (err) {
    console.error(`${(err as Error).message}\n${USAGE}`)
    return 2
  }
  if (!values.url && !values['flashblocks-url']) {
    console.error(USAGE)
    return 2
  }
  const results = await runConformance({ general: values.url, flashblocks: values['flashblocks-url'] }, values.only)
  console.log(formatReport(results))
  return totals(results).failed > 0 ? 1 : 0
}

if (import.meta.url === `file://${process.argv[1]}`) process.exitCode = await main(process.argv.slice(2))
