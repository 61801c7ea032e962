/**
 * What a row of the flag table is: a flag that reads a value into a setting, one that sets a simulated L1
 * setting, a switch, or --help; and the builders the table's files write their rows with.
 */
import type { L1Settings } from '../../opstack/l1-origin.js'
import type { Config } from '../settings.js'
import { type Read, wholeNumber } from './values.js'

/** The simulated L1's settings a flag sets: its prices and scalars. */
type L1Setting = { [K in keyof L1Settings]: L1Settings[K] extends bigint ? K : never }[keyof L1Settings]

/** The settings a switch (a flag without a value) sets. */
type SwitchSetting = { [K in keyof Config]-?: NonNullable<Config[K]> extends boolean ? K : never }[keyof Config]

interface FlagBase {
  /** Its --help text, one paragraph (help.ts wraps it). */
  help: string
  short?: string
  /** A setting of the embedded chain: a follower (--upstream) refuses it, the chain being the upstream's. */
  chain?: true
}

export type Flag =
  /** `--flag <arg>`: the text read into one setting. */
  | (FlagBase & { kind: 'value'; arg: string; to: keyof Config; read: Read<unknown> })
  /** `--flag <arg>`: one of the simulated L1's settings (Config.l1Settings). */
  | (FlagBase & { kind: 'l1'; arg: string; key: L1Setting; read: Read<bigint> })
  /** `--flag`: sets a boolean setting to `sets`. */
  | (FlagBase & { kind: 'switch'; to: SwitchSetting; sets: boolean })
  /** `--help`: prints the help text instead of starting. */
  | (FlagBase & { kind: 'help' })

type Extra = Pick<FlagBase, 'short' | 'chain'>

/** Marks a flag of the embedded chain (refused beside --upstream). */
export const CHAIN: Extra = { chain: true }

/** `--flag <arg>` read by `read` into the setting `to`. */
export const value = <K extends keyof Config>(
  to: K,
  arg: string,
  read: Read<NonNullable<Config[K]>>,
  help: string,
  extra: Extra = {},
): Flag => ({ kind: 'value', to, arg, read, help, ...extra })

/** `--flag` sets the setting `to` to `sets`. */
export const toggle = (to: SwitchSetting, sets: boolean, help: string, extra: Extra = {}): Flag => ({
  kind: 'switch',
  to,
  sets,
  help,
  ...extra,
})

/** `--flag <arg>`: a whole number into the simulated L1's setting `key`. */
export const l1 = (key: L1Setting, arg: string, help: string): Flag => ({
  kind: 'l1',
  key,
  arg,
  read: wholeNumber,
  help,
})
