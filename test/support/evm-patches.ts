/**
 * The test project's set-up: the EVM patches installed as the service installs them at start-up, for the
 * tests that make a chain or an executor themselves (startService's own call then returns this report).
 */
import { installEvmPatches } from '../../src/evm/patches/install.js'

await installEvmPatches()
