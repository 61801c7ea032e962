/**
 * The `unpatched` test project's set-up (vitest.config.ts): the call path's own EVMs get their hooks, and no
 * shipped class is touched, not even by the time budget's process-wide step count. runTx's side of a
 * differential test (the sequencer's, the VM pool's) is then @ethereumjs as published, so "both paths
 * agree" holds the patched path to shipped code.
 */
import { installEvmPatches } from '../../src/evm/patches/install.js'

await installEvmPatches({ processWide: false })
