/**
 * Embedded chains a test file opens one at a time, and their data directories: after each test the open chain
 * is stopped and the directories made for it removed, so a failed test leaves neither timers nor files behind.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach } from 'vitest'
import type { Chain } from '../../src/chain/chain.js'
import { createChain } from '../../src/chain/create-chain.js'
import { type Config, defaultConfig } from '../../src/config.js'

export function scratchChains(dirPrefix: string) {
  let open: Chain | undefined
  const dirs: string[] = []
  afterEach(async () => {
    await open?.stop()
    open = undefined
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
  })

  return {
    /** A new empty data directory, removed after the test. */
    dataDir(): string {
      const dir = mkdtempSync(join(tmpdir(), dirPrefix))
      dirs.push(dir)
      return dir
    },
    /** A chain on `settings` (quiet): the test's only open one. */
    async open(settings: Partial<Config> = {}): Promise<Chain> {
      open = await createChain(defaultConfig({ quiet: true, ...settings }))
      return open
    },
    /** Stops the open chain and opens one on `settings`: a restart, when they name its data directory. */
    async reopen(settings: Partial<Config> = {}): Promise<Chain> {
      await open?.stop()
      open = undefined
      return this.open(settings)
    },
  }
}
