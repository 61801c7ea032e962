/**
 * `npm start`: flags -> startService -> print the endpoints. SIGTERM / Ctrl+C close it gracefully (stop accepting,
 * finish in-flight requests, WebSockets closed with 1001) and the process exits within SHUTDOWN_EXIT_MS.
 * A bad flag prints one sentence and exits 2 (usage error, as most Unix tools).
 */
import { collectDefaultMetrics } from 'prom-client'
import { ConfigError } from './config.js'
import { HELP, parseCommandLine } from './flags.js'
import { banner } from './banner.js'
import { DataDirError } from './chain/persist/db.js'
import { StateFileError } from './chain/persist/state-load.js'
import { FollowerStartError, ForkStartError } from './errors.js'
import { EvmPatchError } from './evm/patches/patch-error.js'
import { SHUTDOWN_EXIT_MS } from './limits.js'
import { startService, type RunningFollower, type RunningService } from './service.js'
import { warmUp } from './warm-up.js'

function exitWithUsageError(message: string): never {
  process.stderr.write(`preconf-rpc: ${message}\nRun with --help to see every flag.\n`)
  process.exit(2)
}

function closeOnSignals(service: RunningService | RunningFollower): void {
  let stopping = false
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) process.exit(130) // a second Ctrl+C: the user wants out now
    stopping = true
    if (!service.config.quiet) process.stdout.write(`\n${signal}: closing\n`)
    // whatever still runs then (a stuck handler, a slow disk), the process is gone in time
    setTimeout(() => {
      process.stderr.write(`preconf-rpc: still closing after ${SHUTDOWN_EXIT_MS} ms; exiting\n`)
      process.exit(1)
    }, SHUTDOWN_EXIT_MS).unref()
    service.close().then(
      () => process.exit(0),
      (err: unknown) => {
        process.stderr.write(`preconf-rpc: error while closing: ${err instanceof Error ? err.message : String(err)}\n`)
        process.exit(1)
      },
    )
  }
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
}

async function main(argv: string[]): Promise<void> {
  let command: ReturnType<typeof parseCommandLine>
  try {
    command = parseCommandLine(argv)
  } catch (err) {
    if (err instanceof ConfigError) exitWithUsageError(err.message)
    throw err
  }
  if (command.help) {
    process.stdout.write(HELP)
    return
  }
  const { config, settings } = command
  let service: RunningService | RunningFollower
  try {
    const { upstream } = settings
    service = upstream
      ? await startService({ ...settings, upstream })
      : await startService({ ...settings, upstream: undefined })
  } catch (err) {
    if (err instanceof FollowerStartError || err instanceof ForkStartError || err instanceof EvmPatchError) {
      process.stderr.write(`preconf-rpc: ${err.message}\n`)
      process.exit(1)
    }
    const code = (err as { code?: string }).code
    if (code === 'EADDRINUSE')
      exitWithUsageError(`port ${config.port} on ${config.host} is already in use; pick another with --port`)
    if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND')
      exitWithUsageError(`cannot listen on --host ${config.host}: no such interface`)
    if (err instanceof DataDirError || err instanceof StateFileError) exitWithUsageError(err.message)
    if (code === 'EACCES') exitWithUsageError(`not allowed to listen on port ${config.port}; use a port above 1023`)
    throw err
  }
  // process-wide figures (CPU, memory, event loop lag) belong to the process, not to each service in it
  collectDefaultMetrics({ register: service.metrics.registry })
  closeOnSignals(service)
  if (!config.quiet) process.stdout.write(banner(service))
  // not in fork mode, where the oracle's state is read from the upstream; PRECONF_WARM_UP=0: a process that
  // meets its first calls cold (bench/cold-calls.ts measures both)
  if ('chain' in service && config.forkUrl === undefined && process.env.PRECONF_WARM_UP !== '0') warmUp(service)
}

await main(process.argv.slice(2))
