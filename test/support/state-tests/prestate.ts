/**
 * What every path of a state-test case starts from: the Common (the chain's factory, src/evm/chain-common.ts,
 * scheduling forks up to the case's fork, chain id 1 as the fixtures sign and read CHAINID), the block
 * the transaction runs in, the signed transaction, and the pre-state in a trie. Imports no patch: the
 * unpatched reference run (run-tx.ts in a process of its own) builds on it too.
 */
import { type Block, createBlock } from '@ethereumjs/block'
import type { Common } from '@ethereumjs/common'
import type { EVMMockBlockchainInterface } from '@ethereumjs/evm'
import { Caches, MerkleStateManager } from '@ethereumjs/statemanager'
import { createTx, type TypedTransaction } from '@ethereumjs/tx'
import {
  Account,
  type Address,
  bigIntToUnpaddedBytes,
  createAddressFromPrivateKey,
  createAddressFromString,
  hexToBytes,
  setLengthLeft,
  utf8ToBytes,
} from '@ethereumjs/util'
import { createChainCommon } from '../../../src/evm/chain-common.js'
import { memoryTrie } from '../../../src/evm/state-views.js'
import { keccak256 } from '../../../src/evm/crypto.js'
import type { Case, Fork, PreAccount, StateTest } from './fixtures.js'

const commons = new Map<Fork, Common>()

/** Mainnet rules through `fork`: the chain's Common is mainnet's EVM; OP Stack fees are the builder's, off here. */
export function stateTestCommon(fork: Fork = 'Cancun'): Common {
  let common = commons.get(fork)
  if (!common) {
    const lastFork = fork === 'Cancun' ? 'cancun' : 'prague'
    commons.set(fork, (common = createChainCommon({ chainId: 1, gasLimit: 30_000_000n, baseFee: 0n, lastFork })))
  }
  return common
}

const big = (hex: string | undefined) => (hex === undefined || hex === '0x' ? 0n : BigInt(hex))

/** BLOCKHASH as geth's state tests answer it: keccak256 of the block number's decimal digits. */
function testBlockHash(n: bigint): Uint8Array {
  return keccak256(utf8ToBytes(n.toString()))
}

export const testBlockHashes: EVMMockBlockchainInterface = {
  async getBlock(n: number) {
    const hash = testBlockHash(BigInt(n))
    return { hash: () => hash }
  },
  async putBlock() {},
  shallowCopy: () => testBlockHashes,
}

export function blockOf(test: StateTest, c = stateTestCommon()): Block {
  const { env } = test
  return createBlock(
    {
      header: {
        number: big(env.currentNumber),
        coinbase: createAddressFromString(env.currentCoinbase),
        timestamp: big(env.currentTimestamp),
        gasLimit: big(env.currentGasLimit),
        baseFeePerGas: big(env.currentBaseFee),
        mixHash: env.currentRandom ? setLengthLeft(hexToBytes(env.currentRandom as `0x${string}`), 32) : undefined,
        difficulty: 0n,
        excessBlobGas: big(env.currentExcessBlobGas),
        parentBeaconBlockRoot: new Uint8Array(32),
      },
    },
    { common: c, skipConsensusFormatValidation: true },
  )
}

/** Signed once per case and Common: signing (noble's secp256k1) is a tenth of a case's CPU. */
const signed = new WeakMap<Case, Map<Common, TypedTransaction | Error>>()

/** The case's transaction, signed with the fixture's key; throws where the fields make no valid transaction. */
export function txOf(testCase: Case, c = stateTestCommon(testCase.fork)): TypedTransaction {
  let byCommon = signed.get(testCase)
  if (!byCommon) signed.set(testCase, (byCommon = new Map()))
  let tx = byCommon.get(c)
  if (!tx) {
    try {
      tx = buildTx(testCase, c)
    } catch (err) {
      tx = err as Error
    }
    byCommon.set(c, tx)
  }
  if (tx instanceof Error) throw tx
  return tx
}

/** The case's transaction unsigned: what an eth_call of it reads (with senderOf), without signing's cost. */
export function unsignedTxOf(testCase: Case, c = stateTestCommon(testCase.fork)): TypedTransaction {
  return buildTx(testCase, c, false)
}

/** The sender of each fixture key, derived once: a handful of keys sign all the cases. */
const senders = new Map<string, Address>()

/** The case's sender, from its key: what recovering it from txOf's signature gives. */
export function senderOf({ test }: Case): Address {
  const key = test.transaction.secretKey
  let sender = senders.get(key)
  if (!sender) senders.set(key, (sender = createAddressFromPrivateKey(hexToBytes(key as `0x${string}`))))
  return sender
}

function buildTx({ test, expected }: Case, c: Common, signed = true): TypedTransaction {
  const t = test.transaction
  const { data, gas, value } = expected.indexes
  const accessList = t.accessLists?.[data]
  const type = t.blobVersionedHashes ? 3 : t.maxFeePerGas !== undefined ? 2 : accessList ? 1 : 0
  const fields = {
    type,
    nonce: big(t.nonce),
    gasLimit: big(t.gasLimit[gas]),
    to: t.to === '' ? undefined : t.to,
    value: big(t.value[value]),
    data: t.data[data],
    ...(type >= 2
      ? { maxFeePerGas: big(t.maxFeePerGas), maxPriorityFeePerGas: big(t.maxPriorityFeePerGas) }
      : { gasPrice: big(t.gasPrice) }),
    ...(type >= 1 ? { accessList: accessList ?? [] } : {}),
    ...(type === 3 ? { blobVersionedHashes: t.blobVersionedHashes, maxFeePerBlobGas: big(t.maxFeePerBlobGas) } : {}),
  }
  const tx = createTx(fields as never, { common: c })
  return signed ? tx.sign(hexToBytes(t.secretKey as `0x${string}`)) : tx
}

/**
 * A state manager holding the pre-state, flushed to its trie (so views at its root read it); and that root.
 * `chainState`: one as the chain's (create-chain.ts): with caches, its slots written to the trie at flush only.
 */
export async function preState(
  pre: Record<string, PreAccount>,
  c = stateTestCommon(),
  { chainState = false } = {},
): Promise<{ state: MerkleStateManager; root: Uint8Array }> {
  const state = new MerkleStateManager({
    common: c,
    trie: memoryTrie(c),
    ...(chainState ? { caches: new Caches() } : {}),
  })
  // imported here: the unpatched reference run loads no module of the patches
  if (chainState) (await import('../../../src/evm/patches/install.js')).patchStateStorage(state)
  for (const [address, account] of Object.entries(pre)) await putPreAccount(state, address, account)
  await state.checkpoint()
  await state.commit()
  await state.flush()
  return { state, root: await state.getStateRoot() }
}

/** Writes one pre-state account (zero storage values are no entries). */
export async function putPreAccount(state: MerkleStateManager, address: string, account: PreAccount): Promise<void> {
  const addr = createAddressFromString(address)
  await state.putAccount(addr, new Account(big(account.nonce), big(account.balance)))
  if (account.code !== '0x' && account.code !== '') await state.putCode(addr, hexToBytes(account.code as `0x${string}`))
  for (const [slot, value] of Object.entries(account.storage)) {
    if (big(value) === 0n) continue
    await state.putStorage(
      addr,
      setLengthLeft(hexToBytes(slot as `0x${string}`), 32),
      bigIntToUnpaddedBytes(big(value)),
    )
  }
}
