/**
 * The command line and `startService` accept and refuse the same settings: every setting the CLI refuses
 * is written here once, as flags and as startService's overrides, and both runners must refuse it with the
 * same sentence naming the flag. (A flag's text of the wrong shape, such as `--port abc`, is the parser's
 * alone: startService takes typed values. src/config.test.ts has those.)
 */
import { hexToBytes } from '@ethereumjs/util'
import { describe, expect, test } from 'vitest'
import { ConfigError, type Config } from '../../src/config.js'
import { parseArgs } from '../../src/flags.js'
import { DEFAULT_L1_SETTINGS, type L1Settings } from '../../src/opstack/l1-origin.js'
import { startService } from '../../src/service.js'

type Case = [argv: string[], settings: Partial<Config>, message: string]

const UPSTREAM = 'http://127.0.0.1:1'
const TARGET = `0x${'11'.repeat(20)}` as `0x${string}`
const l1 = (settings: Partial<L1Settings>) => ({ l1Settings: { ...DEFAULT_L1_SETTINGS, ...settings } })

/** A follower given a flag of the embedded chain. */
const beside = (argv: string[], settings: Partial<Config>): Case => [
  ['--upstream', UPSTREAM, ...argv],
  { upstream: UPSTREAM, ...settings },
  `--${argv[0]!.slice(2)} does not apply in follower mode (--upstream): the chain, its blocks and accounts are the upstream's`,
]

const REFUSED: Case[] = [
  // serving
  [['--port', '70000'], { port: 70_000 }, '--port must be an integer from 0 to 65535, got 70000'],
  [['--host', ' '], { host: ' ' }, '--host must not be empty'],
  [['--rate-limit', '2000000000'], { rateLimit: 2e9 }, '--rate-limit must be a whole number of requests per second'],
  [['--redis-url', 'localhost:6379'], { redisUrl: 'localhost:6379' }, '--redis-url must look like redis://host:6379'],
  [
    ['--trusted-proxies', '10.0.0.0/33'],
    { trustedProxies: ['10.0.0.0/33'] },
    '--trusted-proxies: "10.0.0.0/33" is not an IP address or CIDR range',
  ],
  [['--feed-dialect', 'op'], { feedDialect: 'op' as Config['feedDialect'] }, '--feed-dialect must be xlayer or base'],
  [
    ['--rpc.send-raw-transaction-sync-timeout', '0'],
    { sendSyncTimeoutMs: 0 },
    '--rpc.send-raw-transaction-sync-timeout must be from 1 ms to 3600 s',
  ],
  // geth takes a negative duration as "none": here it is refused, 0 says that
  [['--rpc.evmtimeout=-1s'], { evmTimeoutMs: -1000 }, '--rpc.evmtimeout must be 0 (no timeout) or a duration'],
  [['--rpc.evmtimeout=-500ms'], { evmTimeoutMs: -500 }, '--rpc.evmtimeout must be 0 (no timeout)'],
  // the embedded chain
  [['--network', 'goerli'], { network: 'goerli' as Config['network'] }, '--network must be mainnet or testnet'],
  [['--block-time', '0.001'], { blockTimeMs: 1 }, '--block-time must be from 0.01 to 3600 seconds'],
  [['--block-time', '0.1'], { blockTimeMs: 100 }, '--flashblock-interval (200 ms) must not exceed the block time'],
  [['--flashblock-interval', '0'], { flashblockIntervalMs: 0 }, '--flashblock-interval must be an integer from 10 ms'],
  [['--gas-limit', '100'], { gasLimit: 100n }, '--gas-limit must be from 21000 to 2^63-1, got 100'],
  [['--eip1559-denominator', '0'], { eip1559Denominator: 0n }, '--eip1559-denominator must be a whole number from 1'],
  [['--eip1559-elasticity', '4294967296'], { eip1559Elasticity: 2n ** 32n }, '--eip1559-elasticity must be'],
  [
    ['--min-base-fee', String(2n ** 64n)],
    { minBaseFee: 2n ** 64n },
    '--min-base-fee must be a whole number below 2^64',
  ],
  [
    ['--gasless-block-gas-limit', String(2n ** 64n)],
    { gaslessBlockGasLimit: 2n ** 64n },
    '--gasless-block-gas-limit must be a whole number below 2^64',
  ],
  [
    ['--gasless-targets', `${TARGET}:20000000`],
    { gaslessTargets: [{ address: hexToBytes(TARGET), gasLimit: 20_000_000n }] },
    '--gasless-targets: a gas limit must be from 1 to 16777216',
  ],
  [['--txpool-max-per-sender', '0'], { txpoolMaxPerSender: 0 }, '--txpool-max-per-sender must be an integer from 1'],
  [['--txpool-max-total', '0'], { txpoolMaxTotal: 0 }, '--txpool-max-total must be an integer from 1'],
  [
    ['--fork-url', 'http://127.0.0.1:8545', '--history', '128'],
    { forkUrl: 'http://127.0.0.1:8545', history: 128 },
    '--fork-url does not combine with --history',
  ],
  [['--data-dir', '/tmp/x', '--history', '0'], { dataDir: '/tmp/x', history: 0 }, '--history expects at least 1 block'],
  [['--import', 'chain.rlp'], { importFile: 'chain.rlp' }, '--import needs --genesis'],
  [['--genesis', 'g.json', '--data-dir', '/tmp/x'], { genesis: 'g.json', dataDir: '/tmp/x' }, '--genesis does not'],
  // the dev node
  [['--mnemonic', 'not a real phrase'], { mnemonic: 'not a real phrase' }, '--mnemonic is not a valid BIP-39'],
  [['--accounts', '10001'], { accounts: 10_001 }, '--accounts must be an integer from 0 to 10000'],
  [['--upstream', UPSTREAM, '--dev-methods'], { upstream: UPSTREAM, devMethods: true }, '--dev-methods does not apply'],
  // OP Stack fees
  [['--l1-base-fee', String(2n ** 256n)], l1({ l1BaseFee: 2n ** 256n }), '--l1-base-fee must be a whole number below'],
  [['--l1-blob-base-fee', String(2n ** 256n)], l1({ blobBaseFee: 2n ** 256n }), '--l1-blob-base-fee must be'],
  [['--l1-fee-scalar', '4294967296'], l1({ baseFeeScalar: 2n ** 32n }), '--l1-fee-scalar must be a whole number below'],
  [['--l1-blob-fee-scalar', '4294967296'], l1({ blobBaseFeeScalar: 2n ** 32n }), '--l1-blob-fee-scalar must be'],
  [['--operator-fee-scalar', '4294967296'], l1({ operatorFeeScalar: 2n ** 32n }), '--operator-fee-scalar must be'],
  [['--operator-fee-constant', String(2n ** 64n)], l1({ operatorFeeConstant: 2n ** 64n }), '--operator-fee-constant'],
  [['--da-footprint-gas-scalar', '65536'], l1({ daFootprintGasScalar: 65_536n }), 'below 2^16, got 65536'],
  // fork mode
  [['--fork-block-number', '3'], { forkBlockNumber: 3n }, '--fork-block-number needs --fork-url'],
  [['--fork-url', 'ws://127.0.0.1:1'], { forkUrl: 'ws://127.0.0.1:1' }, '--fork-url must be an http:// or https://'],
  ...(
    [
      ['--upstream', UPSTREAM, 'upstream', '--upstream (follower mode)'],
      ['--genesis', 'g.json', 'genesis', '--genesis'],
      ['--load-state', 's.json', 'loadState', '--load-state'],
      ['--dump-state', 's.json', 'dumpState', '--dump-state'],
      ['--data-dir', '/tmp/x', 'dataDir', '--data-dir'],
    ] as const
  ).map(
    ([flag, value, field, named]): Case => [
      ['--fork-url', UPSTREAM, flag, value],
      { forkUrl: UPSTREAM, [field]: value },
      `--fork-url does not combine with ${named}`,
    ],
  ),
  // follower mode
  [['--upstream', 'ws://127.0.0.1:1'], { upstream: 'ws://127.0.0.1:1' }, '--upstream must be an http:// or https://'],
  [['--upstream-feed', 'ws://127.0.0.1:1'], { upstreamFeed: 'ws://127.0.0.1:1' }, 'need --upstream (follower mode)'],
  [['--sequencer', UPSTREAM], { sequencer: UPSTREAM }, '--upstream-feed and --sequencer need --upstream'],
  [
    ['--upstream', UPSTREAM, '--upstream-feed', UPSTREAM],
    { upstream: UPSTREAM, upstreamFeed: UPSTREAM },
    '--upstream-feed must be a ws:// or wss:// URL',
  ],
  [
    ['--upstream', UPSTREAM, '--sequencer', 'ftp://x'],
    { upstream: UPSTREAM, sequencer: 'ftp://x' },
    '--sequencer must be an http:// or https:// URL',
  ],
  [['--flashblocks-idle-timeout', '5'], { flashblocksIdleTimeoutMs: 5 }, '--flashblocks-idle-timeout must be'],
  [['--upstream-timeout', '0'], { upstreamTimeoutMs: 0 }, '--upstream-timeout must be a whole number of ms from 10'],
  [['--follower-cache-blocks', '0'], { followerCacheBlocks: 0 }, '--follower-cache-blocks must be an integer from 1'],
  // a follower refuses every setting of the embedded chain, the chain being its upstream's
  beside(['--network', 'testnet'], { network: 'testnet' }),
  beside(['--block-time', '2'], { blockTimeMs: 2000 }),
  beside(['--flashblock-interval', '250'], { flashblockIntervalMs: 250 }),
  beside(['--gas-limit', '60000000'], { gasLimit: 60_000_000n }),
  beside(['--eip1559-denominator', '250'], { eip1559Denominator: 250n }),
  beside(['--eip1559-elasticity', '6'], { eip1559Elasticity: 6n }),
  beside(['--min-base-fee', '1'], { minBaseFee: 1n }),
  beside(['--gasless-block-gas-limit', '1'], { gaslessBlockGasLimit: 1n }),
  beside(['--gasless-targets', TARGET], { gaslessTargets: [{ address: hexToBytes(TARGET), gasLimit: 16_777_216n }] }),
  beside(['--mnemonic', 'a b c'], { mnemonic: 'a b c' }),
  beside(['--accounts', '3'], { accounts: 3 }),
  beside(['--balance', '1'], { balance: 10n ** 18n }),
  beside(['--txpool-max-per-sender', '16'], { txpoolMaxPerSender: 16 }),
  beside(['--txpool-max-total', '500'], { txpoolMaxTotal: 500 }),
  beside(['--genesis', 'g.json'], { genesis: 'g.json' }),
  beside(['--import', 'chain.rlp'], { importFile: 'chain.rlp' }),
  beside(['--no-mining'], { mining: false }),
  beside(['--dump-state', 's.json'], { dumpState: 's.json' }),
  beside(['--load-state', 's.json'], { loadState: 's.json' }),
  beside(['--history', '5', '--data-dir', '/tmp/x'], { history: 5, dataDir: '/tmp/x' }),
]

describe('a setting the command line refuses', () => {
  test.each(REFUSED)('%j: from the command line', (argv, _settings, message) => {
    expect(() => parseArgs(argv)).toThrow(ConfigError)
    expect(() => parseArgs(argv)).toThrow(message)
  })

  test.each(REFUSED)('%j: through startService', async (_argv, settings, message) => {
    const started = startService({ port: 0, quiet: true, ...settings } as Partial<Config> & { upstream?: undefined })
    // a wrongly accepted setting starts a service: closed, and the test fails below
    started.then((service) => service.close()).catch(() => {})
    await expect(started).rejects.toThrow(ConfigError)
    await expect(started).rejects.toThrow(message)
  })
})
