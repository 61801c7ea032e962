/**
 * The service's configuration (src/config/): the Config type and its value types (settings.ts); the
 * defaults, the only ones (defaults.ts: --help quotes them, defaultConfig fills them in); and checkConfig
 * (checks.ts), which both ways to start the service go through, `startService`'s overrides and the command
 * line (src/flags.ts, reading the flag table in config/flags/), so the two accept and refuse the same
 * settings and a bad value fails at start with a sentence naming the flag.
 */
export * from './config/checks.js'
export * from './config/defaults.js'
export * from './config/settings.js'
