import { describe, expect, test } from 'vitest'
import { ConfigError, DEFAULT_MNEMONIC, defaultConfig, devMethodsServed } from './config.js'
import { HELP, parseArgs, parseCommandLine } from './flags.js'
import { DEFAULT_L1_SETTINGS } from './opstack/l1-origin.js'
import { hexToBytes } from '@ethereumjs/util'

describe('defaults', () => {
  test('serve mainnet on 127.0.0.1:8545 with 1 s blocks and 200 ms flashblocks', () => {
    expect(parseArgs([])).toEqual({
      host: '127.0.0.1',
      port: 8545,
      network: 'mainnet',
      chainId: 196,
      blockTimeMs: 1000,
      flashblockIntervalMs: 200,
      // X Layer mainnet's genesis gas limit and chain-config EIP-1559 parameters (okx/xlayer-reth b85080e)
      gasLimit: 50_000_000n,
      eip1559Denominator: 100_000_000n,
      eip1559Elasticity: 1n,
      minBaseFee: 0n,
      gaslessBlockGasLimit: 60_000_000n,
      gaslessTargets: [],
      mnemonic: DEFAULT_MNEMONIC,
      accounts: 10,
      balance: 10_000n * 10n ** 18n,
      devAccounts: true,
      txpoolMaxPerSender: 64,
      txpoolMaxTotal: 10_000,
      rateLimit: 100,
      trustedProxies: [],
      rateLimitFailClosed: false,
      quiet: false,
      flashblocksIdleTimeoutMs: 3000,
      upstreamTimeoutMs: 5000,
      followerCacheBlocks: 128,
      opFees: true,
      l1Settings: DEFAULT_L1_SETTINGS,
      mining: true,
      feedDialect: 'xlayer',
      sendSyncTimeoutMs: 6000,
      evmTimeoutMs: 5000,
    })
  })

  test("testnet has chain id 1952 and X Layer testnet's gas limit", () => {
    expect(parseArgs(['--network', 'testnet']).chainId).toBe(1952)
    expect(defaultConfig({ network: 'testnet' }).chainId).toBe(1952)
    expect(defaultConfig({ network: 'testnet' }).gasLimit).toBe(30_000_000n)
  })

  test('an override of undefined keeps the default', () => {
    expect(defaultConfig({ port: undefined }).port).toBe(8545)
  })
})

describe('flags', () => {
  test('every flag lands in the config', () => {
    const config = parseArgs([
      '--port',
      '9000',
      '--host',
      '0.0.0.0',
      '--network',
      'testnet',
      '--block-time',
      '2',
      '--flashblock-interval',
      '250',
      '--gas-limit',
      '60000000',
      '--mnemonic',
      'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about',
      '--accounts',
      '3',
      '--balance',
      '1.5',
      '--no-dev-accounts',
      '--rate-limit',
      '0',
      '--redis-url',
      'redis://127.0.0.1:6379',
      '--trusted-proxies',
      '10.0.0.0/8, 192.168.1.1',
      '--rate-limit-fail-closed',
      '--quiet',
      '--txpool-max-per-sender',
      '16',
      '--txpool-max-total',
      '500',
      '--feed-dialect',
      'base',
      '--rpc.send-raw-transaction-sync-timeout',
      '2500ms',
      '--rpc.evmtimeout',
      '1m30s',
      '--eip1559-denominator',
      '250',
      '--eip1559-elasticity',
      '6',
      '--min-base-fee',
      '0x3b9aca00',
      '--gasless-block-gas-limit',
      '1000000',
      '--gasless-targets',
      '0x00000000000000000000000000000000000000aa, 0x00000000000000000000000000000000000000bb:50000',
    ])
    expect(config).toEqual({
      host: '0.0.0.0',
      port: 9000,
      network: 'testnet',
      chainId: 1952,
      blockTimeMs: 2000,
      flashblockIntervalMs: 250,
      gasLimit: 60_000_000n,
      eip1559Denominator: 250n,
      eip1559Elasticity: 6n,
      minBaseFee: 1_000_000_000n,
      gaslessBlockGasLimit: 1_000_000n,
      gaslessTargets: [
        { address: hexToBytes('0x00000000000000000000000000000000000000aa'), gasLimit: 16_777_216n },
        { address: hexToBytes('0x00000000000000000000000000000000000000bb'), gasLimit: 50_000n },
      ],
      mnemonic: 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about',
      accounts: 3,
      balance: 1_500_000_000_000_000_000n,
      devAccounts: false,
      txpoolMaxPerSender: 16,
      txpoolMaxTotal: 500,
      rateLimit: 0,
      redisUrl: 'redis://127.0.0.1:6379',
      trustedProxies: ['10.0.0.0/8', '192.168.1.1'],
      rateLimitFailClosed: true,
      quiet: true,
      flashblocksIdleTimeoutMs: 3000,
      upstreamTimeoutMs: 5000,
      followerCacheBlocks: 128,
      opFees: true,
      l1Settings: DEFAULT_L1_SETTINGS,
      mining: true,
      feedDialect: 'base',
      sendSyncTimeoutMs: 2500,
      evmTimeoutMs: 90_000,
    })
  })

  test('the follower flags land in the config (the chain flags refused beside them: test/cli/refused-settings.test.ts)', () => {
    const config = parseArgs([
      '--upstream',
      'http://10.0.0.5:8545',
      '--upstream-feed',
      'ws://10.0.0.5:8545/ws/flashblocks',
      '--sequencer',
      'https://sequencer.example/',
      '--flashblocks-idle-timeout',
      '1500',
      '--follower-cache-blocks',
      '64',
      '--upstream-timeout',
      '20000',
      '--no-dev-accounts',
    ])
    expect(config).toMatchObject({
      upstream: 'http://10.0.0.5:8545',
      upstreamFeed: 'ws://10.0.0.5:8545/ws/flashblocks',
      sequencer: 'https://sequencer.example/',
      flashblocksIdleTimeoutMs: 1500,
      followerCacheBlocks: 64,
      upstreamTimeoutMs: 20_000,
      devAccounts: false,
    })
  })

  test('the settings handed to startService are only what the flags gave', () => {
    const upstream = 'http://10.0.0.5:8545'
    expect(parseCommandLine(['--upstream', upstream, '--no-dev-accounts', '--l1-fee-scalar', '7']).settings).toEqual({
      upstream,
      devAccounts: false,
      l1Settings: { ...DEFAULT_L1_SETTINGS, baseFeeScalar: 7n },
    })
    expect(parseCommandLine([]).settings).toEqual({})
  })

  test('-p is short for --port and --port=N works', () => {
    expect(parseArgs(['-p', '1234']).port).toBe(1234)
    expect(parseArgs(['--port=4321']).port).toBe(4321)
  })

  test('--rpc.evmtimeout reads a duration as geth does (Go syntax), 0 turning the limit off', () => {
    // the syntax itself is go-duration.test.ts's: here, that the flag reaches the setting through it
    const read = (text: string) => parseArgs([`--rpc.evmtimeout=${text}`]).evmTimeoutMs
    expect(read('1m30s')).toBe(90_000)
    expect(read('300ms')).toBe(300)
    expect(read('0')).toBe(0)
  })

  test('--history takes a number of blocks or all, and refuses other words', () => {
    expect(parseArgs(['--history', '64']).history).toBe(64)
    expect(parseArgs(['--history', 'all']).history).toBe('all')
    expect(parseArgs([]).history).toBeUndefined()
    expect(() => parseArgs(['--history', 'some'])).toThrow('--history expects a whole number, got "some"')
  })

  test('fractional block times become milliseconds', () => {
    expect(parseArgs(['--block-time', '0.5', '--flashblock-interval', '100']).blockTimeMs).toBe(500)
  })

  test('--help is recognised and the text lists every flag; each name is parsed as it always was', () => {
    expect(parseCommandLine(['--help']).help).toBe(true)
    expect(parseCommandLine(['-h']).help).toBe(true)
    // every flag users and scripts may rely on, by its exact name (a flag renamed or dropped fails here)
    const values = (
      '--port --host --network --block-time --flashblock-interval --gas-limit --eip1559-denominator ' +
      '--eip1559-elasticity --min-base-fee --gasless-block-gas-limit --gasless-targets --mnemonic --accounts ' +
      '--balance --txpool-max-per-sender --txpool-max-total --rate-limit --redis-url --trusted-proxies --data-dir ' +
      '--dump-state --load-state --history --l1-base-fee --l1-blob-base-fee --l1-fee-scalar --l1-blob-fee-scalar ' +
      '--operator-fee-scalar --operator-fee-constant --da-footprint-gas-scalar --genesis --import --feed-dialect ' +
      '--rpc.send-raw-transaction-sync-timeout --rpc.evmtimeout --fork-url --fork-block-number --upstream --upstream-feed ' +
      '--sequencer --flashblocks-idle-timeout --upstream-timeout --follower-cache-blocks'
    ).split(' ')
    const switches =
      '--no-dev-accounts --rate-limit-fail-closed --quiet --no-op-fees --no-mining --no-dev-methods --dev-methods --help'.split(
        ' ',
      )
    for (const flag of [...values, ...switches]) expect(HELP).toContain(`${flag} `)
    const refusal = (argv: string[]) => {
      try {
        parseCommandLine(argv)
        return ''
      } catch (err) {
        return (err as Error).message
      }
    }
    for (const flag of values) {
      expect(refusal([flag])).toBe(`${flag} needs a value`)
      expect(refusal([flag, 'x'])).not.toMatch(/unknown flag/)
    }
    for (const flag of switches) expect(refusal([`${flag}=x`])).toBe(`${flag} does not take a value`)
  })
})

describe('a geth chain', () => {
  test('--genesis, --import and --no-mining land in the config', () => {
    const config = parseArgs(['--genesis', 'g.json', '--import', 'chain.rlp', '--no-mining'])
    expect(config).toMatchObject({ genesis: 'g.json', importFile: 'chain.rlp', mining: false })
  })
})

describe('the dev-node methods', () => {
  test('are on for a loopback --host, off for any other unless --dev-methods, and never in follower mode', () => {
    expect(devMethodsServed(parseArgs([]))).toBe(true)
    expect(devMethodsServed(parseArgs(['--host', '::1']))).toBe(true)
    expect(devMethodsServed(parseArgs(['--no-dev-methods']))).toBe(false)
    expect(devMethodsServed(parseArgs(['--host', '0.0.0.0']))).toBe(false)
    expect(devMethodsServed(parseArgs(['--host', '0.0.0.0', '--dev-methods']))).toBe(true)
    expect(devMethodsServed(parseArgs(['--upstream', 'http://127.0.0.1:8545']))).toBe(false)
    expect(devMethodsServed(parseArgs(['--upstream', 'http://127.0.0.1:8545', '--no-dev-methods']))).toBe(false)
  })

  test('--dev-methods beside --no-dev-methods is refused', () => {
    expect(() => parseArgs(['--dev-methods', '--no-dev-methods'])).toThrow(
      '--dev-methods and --no-dev-methods contradict each other; give one',
    )
    expect(() => parseArgs(['--no-dev-methods', '--dev-methods'])).toThrow('contradict')
  })
})

/** Text of the wrong shape: the parser's alone (the settings it refuses: test/cli/refused-settings.test.ts). */
describe('flags of the wrong shape are refused with a sentence naming the flag', () => {
  test.each([
    [['--bogus'], 'unknown flag --bogus'],
    [['--port'], '--port needs a value'],
    [['--port', 'abc'], '--port expects a whole number, got "abc"'],
    [['--block-time', '-1'], '--block-time needs a value'], // node's parser takes -1 for a flag
    [['--block-time', 'soon'], '--block-time expects a number, got "soon"'],
    [['--balance', 'lots'], '--balance expects an amount of OKB'],
    [['--balance', '1.0000000000000000001'], '--balance expects an amount of OKB'],
    [['--rate-limit', '-5'], '--rate-limit needs a value'],
    [['--gas-limit', '1e6'], '--gas-limit expects a whole number, got "1e6"'],
    [['--gasless-targets', '0x12'], '--gasless-targets expects address[:gas]'],
    [['--operator-fee-constant', 'x'], '--operator-fee-constant expects a whole number'],
    [['--rpc.send-raw-transaction-sync-timeout', '6m'], 'expects a duration such as 6s or 500ms'],
    // geth's time.ParseDuration: a number needs its unit (only 0 goes without)
    [['--rpc.evmtimeout', '5'], '--rpc.evmtimeout expects a duration such as 5s, 300ms or 1m30s (0 = none), got "5"'],
    [['--rpc.evmtimeout', '5 s'], '--rpc.evmtimeout expects a duration'],
    [['--rpc.evmtimeout', '.s'], '--rpc.evmtimeout expects a duration'],
    [['--rpc.evmtimeout', '5sec'], '--rpc.evmtimeout expects a duration'],
    [['--fork-block-number', '0x10'], '--fork-block-number expects a whole number'],
    [['--history', 'every'], '--history expects a whole number'],
    [['--quiet=yes'], '--quiet does not take a value'],
    [['serve'], 'unexpected argument serve'],
  ])('%j', (argv, message) => {
    expect(() => parseArgs(argv)).toThrow(ConfigError)
    expect(() => parseArgs(argv)).toThrow(message)
  })
})

describe('OP Stack flags', () => {
  test('--no-op-fees turns the L1 and operator fees off and the L1 flags set the simulated L1', () => {
    const config = parseArgs([
      '--no-op-fees',
      '--l1-base-fee',
      '30000000000',
      '--l1-blob-base-fee',
      '7',
      '--l1-fee-scalar',
      '1368',
      '--l1-blob-fee-scalar',
      '810949',
      '--operator-fee-scalar',
      '2000',
      '--operator-fee-constant',
      '0x10',
      '--da-footprint-gas-scalar',
      '1000',
    ])
    expect(config.opFees).toBe(false)
    expect(config.l1Settings).toEqual({
      ...DEFAULT_L1_SETTINGS,
      l1BaseFee: 30_000_000_000n,
      blobBaseFee: 7n,
      baseFeeScalar: 1368n,
      blobBaseFeeScalar: 810_949n,
      operatorFeeScalar: 2000n,
      operatorFeeConstant: 16n,
      daFootprintGasScalar: 1000n,
    })
  })
})
