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
      followerCacheBlocks: 128,
      opFees: true,
      l1Settings: DEFAULT_L1_SETTINGS,
      mining: true,
      feedDialect: 'xlayer',
      sendSyncTimeoutMs: 6000,
    })
  })

  test("testnet has chain id 1952 and X Layer testnet's gas limit", () => {
    expect(parseArgs(['--network', 'testnet']).chainId).toBe(1952)
    expect(defaultConfig({ network: 'testnet' }).chainId).toBe(1952)
    expect(defaultConfig({ network: 'testnet' }).gasLimit).toBe(30_000_000n)
  })

  test('EIP-1559 parameters and gasless settings out of range are refused naming the flag', () => {
    expect(() => parseArgs(['--eip1559-denominator', '0'])).toThrow(
      '--eip1559-denominator must be a whole number from 1',
    )
    expect(() => parseArgs(['--eip1559-elasticity', '4294967296'])).toThrow('--eip1559-elasticity must be')
    expect(() => parseArgs(['--min-base-fee', String(2n ** 64n)])).toThrow(
      '--min-base-fee must be a whole number below 2^64',
    )
    expect(() => parseArgs(['--gasless-targets', '0x12'])).toThrow('--gasless-targets expects address[:gas]')
    expect(() => parseArgs(['--gasless-targets', `0x${'11'.repeat(20)}:20000000`])).toThrow(
      '--gasless-targets: a gas limit must be from 1 to 16777216',
    )
    expect(() => parseArgs(['--upstream', 'http://10.0.0.5:8545', '--min-base-fee', '1'])).toThrow(
      /--min-base-fee does not apply in follower mode/,
    )
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
      followerCacheBlocks: 128,
      opFees: true,
      l1Settings: DEFAULT_L1_SETTINGS,
      mining: true,
      feedDialect: 'base',
      sendSyncTimeoutMs: 2500,
    })
  })

  test('the follower flags land in the config, and the chain flags are refused beside --upstream', () => {
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
      '--no-dev-accounts',
    ])
    expect(config).toMatchObject({
      upstream: 'http://10.0.0.5:8545',
      upstreamFeed: 'ws://10.0.0.5:8545/ws/flashblocks',
      sequencer: 'https://sequencer.example/',
      flashblocksIdleTimeoutMs: 1500,
      followerCacheBlocks: 64,
      devAccounts: false,
    })
    expect(() => parseArgs(['--upstream', 'http://10.0.0.5:8545', '--mnemonic', 'a b c'])).toThrow(
      "--mnemonic does not apply in follower mode (--upstream): the chain, its blocks and accounts are the upstream's",
    )
    expect(() => parseArgs(['--upstream', 'http://10.0.0.5:8545', '--block-time', '2'])).toThrow(
      /--block-time does not apply/,
    )
    expect(() => parseArgs(['--upstream', 'ws://10.0.0.5:8545'])).toThrow(
      '--upstream must be an http:// or https:// URL',
    )
    expect(() => parseArgs(['--upstream-feed', 'ws://10.0.0.5:8545'])).toThrow('need --upstream')
  })

  test('-p is short for --port and --port=N works', () => {
    expect(parseArgs(['-p', '1234']).port).toBe(1234)
    expect(parseArgs(['--port=4321']).port).toBe(4321)
  })

  test('fractional block times become milliseconds', () => {
    expect(parseArgs(['--block-time', '0.5', '--flashblock-interval', '100']).blockTimeMs).toBe(500)
  })

  test('--help is recognised and the text lists every flag', () => {
    expect(parseCommandLine(['--help']).help).toBe(true)
    expect(parseCommandLine(['-h']).help).toBe(true)
    for (const flag of [
      '--port',
      '--host',
      '--network',
      '--block-time',
      '--flashblock-interval',
      '--gas-limit',
      '--mnemonic',
      '--accounts',
      '--balance',
      '--no-dev-accounts',
      '--rate-limit',
      '--redis-url',
      '--trusted-proxies',
      '--rate-limit-fail-closed',
      '--quiet',
      '--help',
      '--txpool-max-per-sender',
      '--txpool-max-total',
      '--genesis',
      '--import',
      '--no-mining',
      '--no-dev-methods',
      '--dev-methods',
    ]) {
      expect(HELP).toContain(flag)
    }
  })
})

describe('a geth chain', () => {
  test('--genesis, --import and --no-mining land in the config; --import alone is refused', () => {
    const config = parseArgs(['--genesis', 'g.json', '--import', 'chain.rlp', '--no-mining'])
    expect(config).toMatchObject({ genesis: 'g.json', importFile: 'chain.rlp', mining: false })
    expect(() => parseArgs(['--import', 'chain.rlp'])).toThrow('--import needs --genesis')
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

  test('--dev-methods is refused in follower mode and beside --no-dev-methods', () => {
    expect(() => parseArgs(['--upstream', 'http://127.0.0.1:8545', '--dev-methods'])).toThrow(
      '--dev-methods does not apply in follower mode',
    )
    expect(() => parseArgs(['--dev-methods', '--no-dev-methods'])).toThrow('contradict')
  })
})

describe('bad flags are refused with a sentence naming the flag', () => {
  test.each([
    [['--bogus'], 'unknown flag --bogus'],
    [['--port'], '--port needs a value'],
    [['--port', 'abc'], '--port expects a whole number, got "abc"'],
    [['--port', '70000'], '--port must be an integer from 0 to 65535'],
    [['--network', 'goerli'], '--network must be mainnet or testnet, got "goerli"'],
    [['--block-time', '-1'], '--block-time'],
    [['--block-time', '0.1'], '--flashblock-interval (200 ms) must not exceed the block time (100 ms)'],
    [['--flashblock-interval', '0'], '--flashblock-interval'],
    [['--gas-limit', '100'], '--gas-limit must be from 21000'],
    [['--mnemonic', 'not a real phrase'], '--mnemonic is not a valid BIP-39'],
    [['--balance', 'lots'], '--balance expects an amount of OKB'],
    [['--balance', '1.0000000000000000001'], '--balance expects an amount of OKB'],
    [['--rate-limit', '-5'], '--rate-limit'],
    [['--txpool-max-total', '0'], '--txpool-max-total must be an integer from 1'],
    [['--redis-url', 'localhost:6379'], '--redis-url must look like redis://'],
    [['--trusted-proxies', '10.0.0.0/33'], '--trusted-proxies: "10.0.0.0/33" is not an IP address or CIDR range'],
    [['--quiet=yes'], '--quiet does not take a value'],
    [['--history', '128'], '--history prunes a --data-dir; give one'],
    [['--data-dir', '/tmp/x', '--history', '0'], '--history expects at least 1 block'],
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

  test('a scalar past uint32 fails naming its flag', () => {
    expect(() => parseArgs(['--l1-fee-scalar', '4294967296'])).toThrow(
      /--l1-fee-scalar must be a whole number below 2\^32/,
    )
    expect(() => parseArgs(['--operator-fee-constant', 'x'])).toThrow(/--operator-fee-constant expects a whole number/)
    expect(() => parseArgs(['--da-footprint-gas-scalar', '65536'])).toThrow(
      /--da-footprint-gas-scalar must be a whole number below 2\^16/,
    )
  })
})
