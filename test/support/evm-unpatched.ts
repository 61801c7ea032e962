/**
 * The `unpatched` test project's set-up (vitest.config.ts): the call path's own EVMs get their hooks, and no
 * shipped class is touched, not even by the time budget's process-wide step count. runTx's side of a
 * differential test (the sequencer's, the VM pool's) is then @ethereumjs as published, so "both paths
 * agree" holds the patched path to shipped code. After each file, its leftover child processes are killed.
 */
import { afterAll } from 'vitest'
import { installEvmPatches } from '../../src/evm/patches/install.js'
import { killTrackedChildren } from './children.js'

await installEvmPatches({ processWide: false })
// after the file's own hooks (registered first, so run last): what a timed-out test left running
afterAll(killTrackedChildren)
