/**
 * The command line: flags -> the settings they give (read as the flag table says, src/config/flags/table.ts)
 * -> a checked Config through checkConfig, the same checks startService makes. Node's parser errors are
 * rewritten as one sentence naming the flag; --help is written from the same table.
 */
import { parseArgs as parseFlags, type ParseArgsConfig } from 'node:util'
import { CONFIG_DEFAULTS, checkConfig, ConfigError, type Config } from './config.js'
import { FLAGS, type FlagName } from './config/flags/table.js'
import type { L1Settings } from './opstack/l1-origin.js'

export { HELP } from './config/flags/help.js'

export interface CommandLine {
  /** The checked settings, every default filled in. */
  config: Config
  /** Only what the flags gave: startService's overrides (it checks them again, with the same result). */
  settings: Partial<Config>
  /** --help was given: the config and settings are then the defaults. */
  help: boolean
}

const OPTIONS: NonNullable<ParseArgsConfig['options']> = Object.fromEntries(
  Object.entries(FLAGS).map(([name, flag]) => [
    name,
    {
      type: flag.kind === 'switch' || flag.kind === 'help' ? 'boolean' : 'string',
      ...(flag.short !== undefined && { short: flag.short }),
    },
  ]),
)

/** Rewrites node's parser errors as one short sentence naming the flag. */
function readableParseError(err: unknown): ConfigError {
  const { code, message } = err as { code?: string; message: string }
  const flag = /'(?:-\w, )?(-{1,2}[\w.-]+)/.exec(message)?.[1]
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return new ConfigError(`unknown flag ${flag ?? message}`)
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    return flag && /argument missing|ambiguous/.test(message)
      ? new ConfigError(`${flag} needs a value`)
      : new ConfigError(`${flag ?? 'a flag'} does not take a value`)
  }
  if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL')
    return new ConfigError(`unexpected argument ${/'([^']*)'/.exec(message)?.[1] ?? ''}`.trim())
  return new ConfigError(message)
}

/** The settings the flags give, each read as its table entry says; nothing is checked beyond each text's shape. */
function settingsOf(values: Partial<Record<FlagName, string | boolean>>): Partial<Config> {
  const settings: Record<string, unknown> = {}
  const l1: Partial<L1Settings> = {}
  const switchedBy = new Map<string, FlagName>()
  for (const [name, flag] of Object.entries(FLAGS) as [FlagName, (typeof FLAGS)[FlagName]][]) {
    const given = values[name]
    if (given === undefined) continue
    if (flag.kind === 'value') settings[flag.to] = flag.read(given as string, name)
    else if (flag.kind === 'l1') l1[flag.key] = flag.read(given as string, name)
    else if (flag.kind === 'switch') {
      const other = switchedBy.get(flag.to)
      if (other !== undefined && settings[flag.to] !== flag.sets)
        throw new ConfigError(`--${name} and --${other} contradict each other; give one`)
      switchedBy.set(flag.to, name)
      settings[flag.to] = flag.sets
    }
  }
  if (Object.keys(l1).length) settings.l1Settings = { ...CONFIG_DEFAULTS.l1Settings, ...l1 }
  return settings as Partial<Config>
}

/** Parses the flags; `help` is true when --help was given (the config is then the defaults). */
export function parseCommandLine(argv: string[]): CommandLine {
  let values: Partial<Record<FlagName, string | boolean>>
  try {
    values = parseFlags({ args: argv, options: OPTIONS, strict: true, allowPositionals: false }).values
  } catch (err) {
    throw readableParseError(err)
  }
  if (values.help) return { config: checkConfig({}), settings: {}, help: true }
  const settings = settingsOf(values)
  return { config: checkConfig(settings), settings, help: false }
}

/** The contract's entry: flags -> a checked Config; throws ConfigError for a bad flag. */
export function parseArgs(argv: string[]): Config {
  return parseCommandLine(argv).config
}
