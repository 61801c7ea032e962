/**
 * Path 3: the follower's re-execution. The case's transaction arrives as a one-transaction flashblock of a
 * block whose `base` is the fixture's environment, and the Reexecutor (src/follower/reexecute.ts) runs it on
 * upstream-backed state read over HTTP from a PreStateUpstream serving the pre-state. Upstream-backed state
 * has no trie, so the post-state root is rebuilt here: the pre-state with every account the re-execution
 * wrote (UpstreamStateManager.written) read back from its state.
 */
import { MerkleStateManager } from '@ethereumjs/statemanager'
import { Account, bytesToHex, createAddressFromString, hexToBytes } from '@ethereumjs/util'
import { memoryTrie } from '../../../src/evm/state-views.js'
import { UpstreamClient } from '../../../src/follower/upstream-client.js'
import { type ReexecuteResult, Reexecutor } from '../../../src/follower/reexecute.js'
import type { UpstreamStateManager } from '../../../src/follower/upstream-state.js'
import type { FlashblockPayload } from '../../../src/domain/types.js'
import type { Case } from './fixtures.js'
import type { PreStateUpstream } from './pre-state-upstream.js'
import { blockOf, preState, putPreAccount, stateTestCommon, testBlockHashes, txOf } from './prestate.js'
import { logsHash, type TxOutcome } from './run-tx.js'

const ZERO32 = new Uint8Array(32)

function payloadOf(c: Case, raws: Uint8Array[]): FlashblockPayload {
  const { header } = blockOf(c.test, stateTestCommon(c.fork))
  return {
    payloadId: Uint8Array.of(0, 0, 0, 0, 0, 0, 0, 1),
    index: 0,
    base: {
      parentBeaconBlockRoot: ZERO32,
      parentHash: ZERO32,
      feeRecipient: header.coinbase.bytes,
      prevRandao: header.mixHash,
      blockNumber: header.number,
      gasLimit: header.gasLimit,
      timestamp: header.timestamp,
      extraData: new Uint8Array(),
      baseFeePerGas: header.baseFeePerGas ?? 0n,
    },
    diff: {
      stateRoot: hexToBytes(c.expected.hash as `0x${string}`),
      receiptsRoot: ZERO32,
      logsBloom: new Uint8Array(256),
      gasUsed: 0n,
      blockHash: ZERO32,
      transactions: raws,
      withdrawals: [],
      withdrawalsRoot: ZERO32,
    },
    metadata: { blockNumber: header.number, newAccountBalances: [], receipts: [] },
  }
}

export async function reexecuteCase(c: Case, upstream: PreStateUpstream): Promise<TxOutcome> {
  const pre = await preState(c.test.pre, stateTestCommon(c.fork))
  let raw: Uint8Array
  try {
    raw = txOf(c).serialize()
  } catch (err) {
    return { root: bytesToHex(pre.root), logs: logsHash([]), invalid: (err as Error).message }
  }
  upstream.serve(c.test.pre, pre.state)
  const result = await reexecute(c, [raw], upstream)
  if (result.kind !== 'applied') return { root: bytesToHex(pre.root), logs: logsHash([]), invalid: result.reason }
  const receipt = result.flashblock.executed.receipts[0]
  return {
    root: await rebuiltRoot(c, result.state),
    logs: logsHash(receipt.logs.map((l) => [l.address, [...l.topics], l.data])),
  }
}

/**
 * `raws` as one flashblock of a block on the case's environment, re-executed by a new Reexecutor on what
 * `upstream` serves (the caller has it serve the case's pre-state).
 */
export async function reexecute(c: Case, raws: Uint8Array[], upstream: PreStateUpstream): Promise<ReexecuteResult> {
  const reexecutor = new Reexecutor({
    common: stateTestCommon(c.fork),
    upstream: new UpstreamClient(upstream.url),
    blockHashes: testBlockHashes,
    // mainnet rules: no L1 data or operator fee
    opFees: false,
  })
  const payload = payloadOf(c, raws)
  return reexecutor.apply(payload, payload.base!.blockNumber - 1n)
}

/** The root of the pre-state with the accounts `state` wrote as it has them now. */
export async function rebuiltRoot(c: Case, state: UpstreamStateManager): Promise<string> {
  const pre = c.test.pre
  const written = state.written()
  const common = stateTestCommon(c.fork)
  const out = new MerkleStateManager({ common, trie: memoryTrie(common) })
  const preByKey = new Map(Object.entries(pre).map(([a, account]) => [a.toLowerCase(), account]))
  for (const key of new Set([...preByKey.keys(), ...written.keys()])) {
    const address = createAddressFromString(key)
    const original = preByKey.get(key)
    if (!written.has(key)) {
      await putPreAccount(out, key, original!)
      continue
    }
    const account = await state.getAccount(address)
    if (!account) continue
    await out.putAccount(address, new Account(account.nonce, account.balance))
    const code = await state.getCode(address)
    if (code.length) await out.putCode(address, code)
    const slots = new Set([...Object.keys(original?.storage ?? {}).map(slotKey), ...written.get(key)!])
    for (const slot of slots) {
      const value = await state.getStorage(address, hexToBytes(slot as `0x${string}`))
      if (value.length) await out.putStorage(address, hexToBytes(slot as `0x${string}`), value)
    }
  }
  await out.flush()
  return bytesToHex(await out.getStateRoot())
}

/** A slot as keyOf writes it: 32 bytes, hex. */
const slotKey = (slot: string) => `0x${BigInt(slot).toString(16).padStart(64, '0')}`
