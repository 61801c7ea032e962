/**
 * Every command-line flag, once, in --help's sections: its name, the setting it fills, how its text is read,
 * whether a follower refuses it, and its help text. The parser's options (src/flags.ts), the help text
 * (help.ts) and the follower's refusals (src/config/checks.ts) are all derived from this table, so a flag
 * added to one of its files is parsed, listed and checked with nothing else to edit.
 */
import { CHAIN_SETTING_FLAGS, DEV_NODE_FLAGS } from './chain.js'
import type { Flag } from './kinds.js'
import { FEE_FLAGS, FOLLOWER_FLAGS, FORK_FLAGS } from './modes.js'
import { SERVING_FLAGS } from './serving.js'

/** --help's sections, in order: a title and its flags. */
export const FLAG_SECTIONS: readonly (readonly [string, Readonly<Record<string, Flag>>])[] = [
  ['Serving:', SERVING_FLAGS],
  ['The embedded chain:', CHAIN_SETTING_FLAGS],
  ['Its dev node (the accounts it holds keys of, the methods that change its state without a key):', DEV_NODE_FLAGS],
  ["OP Stack fees (the simulated L1 every block's L1-info deposit carries):", FEE_FLAGS],
  ["Fork mode (the embedded chain starts on another node's state, as anvil --fork-url):", FORK_FLAGS],
  ['Follower mode (serve an upstream node and its flashblocks feed instead of the embedded chain):', FOLLOWER_FLAGS],
]

export const FLAGS = {
  ...SERVING_FLAGS,
  ...CHAIN_SETTING_FLAGS,
  ...DEV_NODE_FLAGS,
  ...FEE_FLAGS,
  ...FORK_FLAGS,
  ...FOLLOWER_FLAGS,
}

export type FlagName = keyof typeof FLAGS

/** The flags a follower refuses, the chain being its upstream's. */
export const CHAIN_FLAGS = (Object.entries(FLAGS) as [FlagName, Flag][]).filter(([, flag]) => flag.chain)
