/**
 * CommonJS dependencies only some modes use, required (synchronously) when first needed instead of imported
 * at every start: ioredis for --redis-url (~130 ms of CPU to load on a 2-core machine) and classic-level for
 * --data-dir (~35 ms, a native addon), micro-eth-signer's index for eth_signTypedData_v4 (~15-25 ms beyond
 * the curves it shares: its ABI and transaction coders). Node caches the module, so the second call costs nothing.
 */
import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)

export const ioredis = (): typeof import('ioredis') => require('ioredis')

export const classicLevel = (): typeof import('classic-level') => require('classic-level')

export const microEthSigner = (): typeof import('micro-eth-signer') => require('micro-eth-signer')
