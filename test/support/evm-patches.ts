/**
 * The test project's set-up: the EVM patches installed as the service installs them at start-up, for the
 * tests that make a chain or an executor themselves (startService's own call then returns this report); and
 * after each file, whatever child process it left running is killed (children.ts).
 */
import { afterAll } from 'vitest'
import { installEvmPatches } from '../../src/evm/patches/install.js'
import { killTrackedChildren } from './children.js'

await installEvmPatches()
// after the file's own hooks (registered first, so run last): what a timed-out test left running
afterAll(killTrackedChildren)
