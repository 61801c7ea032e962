import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createHttpClient, RpcResponseError, type RpcClient } from '../../generated/client.js'
import { lookupMethod, methodTable } from '../../generated/methods.js'
import { startService, type RunningService } from '../../src/service.js'

let mainnet: RunningService
let testnet: RunningService
let general: RpcClient
let flashblocks: RpcClient

beforeAll(async () => {
  ;[mainnet, testnet] = await Promise.all([
    startService({ port: 0, quiet: true }),
    startService({ port: 0, quiet: true, network: 'testnet' }),
  ])
  general = createHttpClient(mainnet.url)
  flashblocks = createHttpClient(mainnet.flashblocksUrl)
})

afterAll(async () => {
  await Promise.all([mainnet?.close(), testnet?.close()])
})

describe('the methods that need no chain, through the generated client on a real socket', () => {
  test('web3_clientVersion names the service, its version, the platform and node', async () => {
    const version = await general.web3_clientVersion()
    expect(version).toMatch(/^preconf-rpc\/v\d+\.\d+\.\d+[^/]*\/[a-z0-9]+-[a-z0-9]+\/node\d+$/)
    expect(version).toContain(`/node${process.versions.node.split('.')[0]}`)
  })

  test('web3_sha3 is Keccak-256, not SHA3-256', async () => {
    expect(await general.web3_sha3('0x')).toBe('0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470')
    expect(await general.web3_sha3('0x68656c6c6f')).toBe(
      '0x1c8aff950685c2ed4bc3174f3472287b56d9517b9c948127319a09a7a36deac8',
    )
  })

  test('net_version is the decimal chain id and eth_chainId the hex one, per network', async () => {
    expect(await general.net_version()).toBe('196')
    expect(await general.eth_chainId()).toBe('0xc4')
    const test = createHttpClient(testnet.url)
    expect(await test.net_version()).toBe('1952')
    expect(await test.eth_chainId()).toBe('0x7a0')
  })

  test('the fixed answers: listening, protocol version, compilers, syncing, txpool', async () => {
    expect(await general.net_listening()).toBe(true)
    expect(await general.eth_protocolVersion()).toBe('0x0')
    expect(await general.eth_getCompilers()).toEqual([])
    expect(await general.eth_syncing()).toBe(false)
    expect(await general.txpool_content()).toEqual({ pending: {}, queued: {} })
  })

  test('an L2 has no uncles: counts of known blocks are 0x0, of unknown ones null (as geth), lookups null', async () => {
    const hash = `0x${'ab'.repeat(32)}` as const
    const genesis = (await general.eth_getBlockByNumber('0x0', false))!
    expect(await general.eth_getUncleCountByBlockHash(genesis.hash)).toBe('0x0')
    expect(await general.eth_getUncleCountByBlockHash(hash)).toBeNull()
    expect(await general.eth_getUncleCountByBlockNumber('latest')).toBe('0x0')
    expect(await general.eth_getUncleCountByBlockNumber('0xffffff')).toBeNull()
    expect(await general.eth_getUncleByBlockHashAndIndex(hash, '0x0')).toBeNull()
    expect(await general.eth_getUncleByBlockNumberAndIndex('latest', '0x0')).toBeNull()
  })

  test('op_supportedCapabilities answers on /flashblocks and is not served on /', async () => {
    expect(await flashblocks.op_supportedCapabilities()).toEqual(['flashblocksv1'])
    const refused = await general.op_supportedCapabilities().catch((err: unknown) => err)
    expect(refused).toBeInstanceOf(RpcResponseError)
    expect(refused).toMatchObject({
      code: -32601,
      message: 'the method op_supportedCapabilities does not exist/is not available',
    })
  })

  test('every result matches its schema in the document', async () => {
    const calls = [
      ['web3_clientVersion', await general.web3_clientVersion()],
      ['net_version', await general.net_version()],
      ['net_listening', await general.net_listening()],
      ['eth_chainId', await general.eth_chainId()],
      ['eth_protocolVersion', await general.eth_protocolVersion()],
      ['eth_getCompilers', await general.eth_getCompilers()],
      ['eth_syncing', await general.eth_syncing()],
      ['txpool_content', await general.txpool_content()],
      ['op_supportedCapabilities', await flashblocks.op_supportedCapabilities()],
    ] as const
    for (const [name, result] of calls) expect(methodTable[name].checkResult(result), name).toBe(true)
  })
})

describe('rpc.discover', () => {
  test('each endpoint returns its own document, listing exactly the methods it serves', async () => {
    for (const [endpoint, client] of [
      ['general', general],
      ['flashblocks', flashblocks],
    ] as const) {
      const document = (await client['rpc.discover']()) as unknown as {
        openrpc: string
        methods: { name: string }[]
        servers: { name: string }[]
      }
      expect(document.openrpc).toMatch(/^1\.\d+\.\d+$/)
      expect(document.servers[0]?.name).toBe(endpoint)
      const names = document.methods.map((method) => method.name)
      for (const name of names) expect(lookupMethod(endpoint, name), `${name} on ${endpoint}`).toBeDefined()
      const served = Object.values(methodTable)
        .filter((spec) => spec.endpoints.includes(endpoint))
        .map((spec) => spec.name)
      expect(new Set(names)).toEqual(new Set(served))
    }
  })

  test('GET on an endpoint counts the same methods rpc.discover lists', async () => {
    for (const url of [mainnet.url, mainnet.flashblocksUrl]) {
      const description = (await (await fetch(url)).json()) as { methods: number }
      const document = (await createHttpClient(url)['rpc.discover']()) as { methods: unknown[] }
      expect(description.methods).toBe(document.methods.length)
    }
  })
})

describe('batches through the generated client', () => {
  test('a batch answers each call in order, errors in place', async () => {
    const outcomes = await general.batch([
      { method: 'eth_chainId', params: [] },
      { method: 'op_supportedCapabilities', params: [] },
      { method: 'net_version', params: [] },
    ])
    expect(outcomes).toEqual([
      { result: '0xc4' },
      { error: { code: -32601, message: 'the method op_supportedCapabilities does not exist/is not available' } },
      { result: '196' },
    ])
  })
})
