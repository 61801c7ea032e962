/**
 * The service's configuration (src/config/): the Config type and its value types (settings.ts), the
 * defaults, the only ones (defaults.ts: the chain factory, the CLI and --help read them there), and
 * checkConfig (checks.ts), which every source of settings goes through: `startService`'s overrides and
 * the command line (src/flags.ts, through the flag table in config/flags/table.ts) are accepted and refused alike,
 * so a bad value fails at start with a sentence naming the flag.
 */
export * from './config/checks.js'
export * from './config/defaults.js'
export * from './config/settings.js'
