/**
 * The chain's `Common` on @ethereumjs 10: chain 196/1952 with every fork up to Prague active at genesis (PoS,
 * no miner reward) and fast crypto, and the shared copies that spare each header, transaction and VM the
 * params merge @ethereumjs's constructors run.
 */
import { paramsBlock } from '@ethereumjs/block'
import { type Common, Mainnet, createCustomCommon } from '@ethereumjs/common'
import { paramsTx } from '@ethereumjs/tx'
import { paramsVM } from '@ethereumjs/vm'
import { paramsEVM } from '@ethereumjs/evm'
import { opStackChainName } from '../opstack/op-chain.js'
import { ecrecover, keccak256, kzg } from './crypto.js'
import { replaceCommon } from './patches/fields.js'

/**
 * `lastFork`: the newest fork scheduled (default Prague, the chain's); the state-test harness runs fixtures
 * filled for an earlier one under that fork's rules.
 */
export type EngineOptions = { chainId: number; gasLimit: bigint; baseFee: bigint; lastFork?: 'cancun' | 'prague' }

const BLOCK_FORKS = [
  'chainstart',
  'homestead',
  'tangerineWhistle',
  'spuriousDragon',
  'byzantium',
  'constantinople',
  'petersburg',
  'istanbul',
  'muirGlacier',
  'berlin',
  'london',
  'arrowGlacier',
  'grayGlacier',
  'paris',
]
const TIME_FORKS = ['shanghai', 'cancun', 'prague']

export function createChainCommon({ chainId, gasLimit, baseFee, lastFork = 'prague' }: EngineOptions): Common {
  const timeForks = TIME_FORKS.slice(0, TIME_FORKS.indexOf(lastFork) + 1)
  const hardforks = [
    ...BLOCK_FORKS.map((name) => ({ name, block: 0 })),
    ...timeForks.map((name) => ({ name, block: null, timestamp: 0 })),
  ]
  return createCustomCommon(
    {
      name: opStackChainName(chainId),
      chainId,
      consensus: { type: 'pos', algorithm: 'casper' },
      // Mainnet's genesis (gas limit 5000, PoW) is inherited unless overridden
      genesis: {
        gasLimit: Number(gasLimit),
        difficulty: 0,
        nonce: '0x0000000000000000',
        extraData: '0x',
        timestamp: '0x0',
        baseFeePerGas: `0x${baseFee.toString(16)}`,
        excessBlobGas: '0x0',
      },
      hardforks,
      // Mainnet's beacon deposit contract is not this chain's (eth_config reports it)
      depositContractAddress: '0x0000000000000000000000000000000000000000',
    },
    Mainnet,
    { hardfork: lastFork, customCrypto: { keccak256, ecrecover, kzg } },
  )
}

/**
 * The Common to give a VM or EVM that will be dropped (one per call, trace, pooled root or re-executed block).
 * @ethereumjs's EVM subscribes to its Common's 'hardforkChanged' event and never unsubscribes, so every VM
 * made on a long-lived Common stays reachable from it for good, with its state manager and opcode table (a
 * follower leaked one per block and one per eth_call). A copy shares the params but owns its event emitter,
 * which goes with the VM.
 */
export function throwawayVmCommon(common: Common): Common {
  const copy = vmCommon(common).copy()
  throwawayOrigins.set(copy, originOf(common))
  return copy
}

const vmCommons = new WeakMap<Common, Common>()

/**
 * What throw-away VM Commons copy: the record Common with the VM's and EVM's params merged as well, so
 * createVM and EVM.shallowCopy (one per speculative call when a follower discovers a flashblock's reads)
 * skip the merge, as callCommon's copies do. Copies share the params of the Common they copy, so the merge
 * would change nothing; a fork change of the origin (a genesis file's chain at startup) makes a new one.
 */
function vmCommon(common: Common): Common {
  const origin = originOf(common)
  // a copy moved to another fork than its origin's: copied as it is (merged on the VM's construction)
  if (origin.hardfork() !== common.hardfork()) return common
  let shared = vmCommons.get(origin)
  if (!shared || shared.hardfork() !== origin.hardfork()) {
    shared = recordCommon(origin).copy()
    shared.updateParams(paramsVM)
    shared.updateParams(paramsEVM)
    shared.updateParams = () => {}
    vmCommons.set(origin, shared)
  }
  return shared
}

/** Throw-away VM Commons by the Common they copy: the shared record and call Commons are kept per origin. */
const throwawayOrigins = new WeakMap<Common, Common>()
const originOf = (common: Common): Common => throwawayOrigins.get(common) ?? common

const recordCommons = new WeakMap<Common, Common>()

/**
 * Every @ethereumjs header and transaction copies its Common and rebuilds a params cache (~13 KB each,
 * evm-engine.md section 7). Objects the chain keeps for the whole run (block headers, pool and block
 * transactions) are built unfrozen and given this one shared Common instead, then frozen (freezing is
 * what turns on their hash and sender caches).
 */
export function adoptCommon<T extends object>(object: T, common: Common): T {
  replaceCommon(object, recordCommon(common))
  return Object.freeze(object) as T
}

/** The chain's Common with the block and transaction params already merged (shared by long-lived objects). */
function recordCommon(vmCommon: Common): Common {
  const common = originOf(vmCommon)
  let shared = recordCommons.get(common)
  if (!shared) {
    shared = common.copy()
    shared.updateParams(paramsBlock)
    shared.updateParams(paramsTx)
    recordCommons.set(common, shared)
  }
  return shared
}

const callCommons = new WeakMap<Common, Common>()

/**
 * For the throw-away transactions and blocks of eth_call / eth_estimateGas, and for decoding a raw
 * transaction before adoptCommon gives it the record Common: the record Common, whose copies skip the
 * params merge every @ethereumjs constructor runs (JSON-copying each EIP's params and rebuilding the
 * cache, ~0.2 ms an object). The params are already merged, so the merge would change nothing. Do not
 * use it for anything that sets params of its own.
 */
export function callCommon(vmCommon: Common): Common {
  const common = originOf(vmCommon)
  let shared = callCommons.get(common)
  if (!shared) {
    shared = recordCommon(common).copy()
    // an own property: Common.copy() (which every constructor calls) carries it over to the copy
    shared.updateParams = () => {}
    callCommons.set(common, shared)
  }
  return shared
}

const forkCommons = new WeakMap<Common, Map<string, Common>>()

/**
 * `common` under the fork of the block `header` belongs to: an imported chain (--genesis/--import) spans
 * many forks, and replaying or calling on an old block must use that block's rules. The chain's own Common
 * when the fork is the same (always on the dev chain).
 */
export function commonAt(common: Common, header: { number: bigint; timestamp: bigint }): Common {
  // every eth_call asks twice for its block; the schedule walk is a measurable part of a cached call
  const known = headerForks.get(header)
  if (known && known.common === common && known.fork === common.hardfork()) return known.answer
  const answer = forkOf(common, header)
  headerForks.set(header, { common, fork: common.hardfork(), answer })
  return answer
}

/**
 * Per header object (headers are frozen): the Common last asked about, its fork then (an import moves the
 * chain's Common from fork to fork) and the answer.
 */
const headerForks = new WeakMap<object, { common: Common; fork: string; answer: Common }>()

function forkOf(common: Common, header: { number: bigint; timestamp: bigint }): Common {
  const fork = common.getHardforkBy({ blockNumber: header.number, timestamp: header.timestamp })
  if (fork === common.hardfork()) return common
  let byFork = forkCommons.get(common)
  if (!byFork) forkCommons.set(common, (byFork = new Map()))
  let forked = byFork.get(fork)
  if (!forked) {
    forked = common.copy()
    forked.setHardfork(fork)
    byFork.set(fork, forked)
  }
  return forked
}
