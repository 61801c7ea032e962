/**
 * The @ethereumjs release the patches were written against and measured on: installEvmPatches refuses any
 * other, so a dependency bump fails at start-up until someone has gone through the upgrade checklist in
 * docs/design/evm-engine.md and moved this pin.
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'

export const ETHEREUMJS_VERSION = '10.1.3'

/** The @ethereumjs packages the patches reach into, or whose objects they are handed. */
const PACKAGES = ['block', 'common', 'evm', 'mpt', 'statemanager', 'tx', 'util', 'vm']

const require = createRequire(import.meta.url)

/** The directory of an @ethereumjs package (its exports map has no ./package.json). */
export function packageDir(name: string): string {
  return require.resolve(`@ethereumjs/${name}`).replace(/[\\/]dist[\\/]cjs[\\/]index\.js$/, '')
}

/** What differs from the pin: `@ethereumjs/vm is 10.2.0`, or undefined when every package is the pinned release. */
export function versionMismatch(): string | undefined {
  for (const name of PACKAGES) {
    const { version } = JSON.parse(readFileSync(`${packageDir(name)}/package.json`, 'utf8')) as { version: string }
    if (version !== ETHEREUMJS_VERSION) return `@ethereumjs/${name} is ${version}`
  }
  return undefined
}
