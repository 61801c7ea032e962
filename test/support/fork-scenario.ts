/**
 * Fork mode's common scenario: an upstream (anvil or this service) with a token deployed and a transfer
 * mined, and the reads a fork must answer as that upstream does at the fork block.
 */
import { encodeDeployData, encodeFunctionData, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { BOB, DEV_KEY_0 } from './dev-keys.js'
import { testToken } from './fixtures.js'
import { call } from './rpc.js'
import { until } from './wait-for.js'

const deployer = privateKeyToAccount(DEV_KEY_0)

/** Signs from dev account 0 on `url`'s chain (its chain id, its pending nonce). */
async function send(url: string, fields: { to?: Hex; data: Hex; gas: bigint }): Promise<Hex> {
  const chainId = Number(await call(url, 'eth_chainId'))
  const nonce = Number(await call(url, 'eth_getTransactionCount', [deployer.address, 'pending']))
  const raw = await deployer.signTransaction({
    chainId,
    nonce,
    ...fields,
    maxFeePerGas: 100_000_000_000n,
    maxPriorityFeePerGas: 1n,
  })
  return call(url, 'eth_sendRawTransaction', [raw])
}

/** The receipt once `url` has the transaction in a block (anvil mines at once; this service within a block). */
async function mined(url: string, hash: Hex) {
  await until(async () => (await call(url, 'eth_getTransactionReceipt', [hash])) !== null, `${hash} to be mined`)
  return call(url, 'eth_getTransactionReceipt', [hash])
}

export interface Upstreamed {
  token: Hex
  transfer: Hex
}

/** Deploys the test token on `url` and transfers 5 of it to BOB; both mined. */
export async function deployOnUpstream(url: string): Promise<Upstreamed> {
  const data = encodeDeployData({ abi: testToken.abi, bytecode: testToken.bytecode, args: [10n ** 24n] })
  const token = (await mined(url, await send(url, { data, gas: 3_000_000n }))).contractAddress as Hex
  const transfer = await send(url, { to: token, data: transferToBob(5n), gas: 100_000n })
  await mined(url, transfer)
  return { token, transfer }
}

const transferToBob = (amount: bigint): Hex =>
  encodeFunctionData({ abi: testToken.abi, functionName: 'transfer', args: [BOB, amount] })

export const balanceOfBob = (): Hex =>
  encodeFunctionData({ abi: testToken.abi, functionName: 'balanceOf', args: [BOB] })

/** Signs the token transfer from dev account 0 for the fork at `url` (the upstream's chain id). */
export async function signTokenTransfer(url: string, token: Hex, amount: bigint): Promise<Hex> {
  const chainId = Number(await call(url, 'eth_chainId'))
  const nonce = Number(await call(url, 'eth_getTransactionCount', [deployer.address, 'pending']))
  return deployer.signTransaction({
    chainId,
    nonce,
    to: token,
    data: transferToBob(amount),
    gas: 100_000n,
    maxFeePerGas: 100_000_000_000n,
    maxPriorityFeePerGas: 1n,
  })
}

/** What a fork must answer as its upstream does at block `at` (hex): state, code, a block, a tx and its receipt, a call. */
export async function readsAt(url: string, at: Hex, { token, transfer }: Upstreamed) {
  const block = await call(url, 'eth_getBlockByNumber', [at, false])
  const byHash = await call(url, 'eth_getBlockByHash', [block.hash, false])
  const tx = await call(url, 'eth_getTransactionByHash', [transfer])
  const receipt = await call(url, 'eth_getTransactionReceipt', [transfer])
  const pick = (o: Record<string, unknown>, keys: string[]) => Object.fromEntries(keys.map((k) => [k, o[k]]))
  const blockKeys = ['hash', 'parentHash', 'number', 'stateRoot', 'transactionsRoot', 'receiptsRoot', 'timestamp']
  return {
    balance: await call(url, 'eth_getBalance', [deployer.address, at]),
    bobBalance: await call(url, 'eth_getBalance', [BOB, at]),
    nonce: await call(url, 'eth_getTransactionCount', [deployer.address, at]),
    code: await call(url, 'eth_getCode', [token, at]),
    slot0: await call(url, 'eth_getStorageAt', [token, '0x0', at]),
    call: await call(url, 'eth_call', [{ to: token, data: balanceOfBob() }, at]),
    block: pick(block, [...blockKeys, 'baseFeePerGas', 'gasLimit', 'gasUsed']),
    byHash: pick(byHash, blockKeys),
    tx: pick(tx, ['hash', 'blockHash', 'blockNumber', 'from', 'to', 'input', 'nonce', 'r', 's']),
    receipt: pick(receipt, ['transactionHash', 'blockHash', 'status', 'gasUsed', 'logsBloom', 'contractAddress']),
    logs: receipt.logs.map((log: Record<string, unknown>) => pick(log, ['address', 'topics', 'data', 'logIndex'])),
    getLogs: (await call(url, 'eth_getLogs', [{ fromBlock: '0x0', toBlock: at, address: token }])).map(
      (log: Record<string, unknown>) => pick(log, ['blockHash', 'transactionHash', 'topics', 'data', 'logIndex']),
    ),
  }
}
