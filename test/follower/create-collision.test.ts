/**
 * EIP-7610 on the follower's upstream-backed state: a creation onto an account with storage but no nonce or
 * code fails as it does on a trie, and the storage root that decides it is asked of the upstream
 * (eth_getProof) only for a creation whose target has no nonce and no code; once such an account is emptied
 * and created onto, none of its upstream storage shows. The re-executed post-state is held to runTx's on a
 * trie holding the same pre-state.
 */
import { createTx } from '@ethereumjs/tx'
import { bigIntToBytes, bytesToHex, createAddressFromString, generateAddress, hexToBytes } from '@ethereumjs/util'
import { createVM, runTx } from '@ethereumjs/vm'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { throwawayVmCommon } from '../../src/evm/chain-common.js'
import type { Case, PreAccount, StateTest } from '../support/state-tests/fixtures.js'
import { PreStateUpstream } from '../support/state-tests/pre-state-upstream.js'
import { blockOf, preState, stateTestCommon, testBlockHashes, txOf } from '../support/state-tests/prestate.js'
import { rebuiltRoot, reexecute, reexecuteCase } from '../support/state-tests/reexec-path.js'
import { runTxCase } from '../support/state-tests/run-tx.js'

const KEY = '0x45a915e4d060149eb4365960e6a7a45f334393093061116b197e3240065ff2d8'
const SENDER = '0xa94f5374fce5edbc8e2a8697c15331677e6ebf0b'
/** Where the sender's first creation (nonce 0) lands. */
const TARGET = bytesToHex(generateAddress(hexToBytes(SENDER), bigIntToBytes(0n)))
/** Init code: SSTORE(1, 1), then return no code. */
const INIT = '0x600160015500'

const account = (fields: Partial<PreAccount> = {}): PreAccount => ({
  balance: '0x0',
  code: '0x',
  nonce: '0x0',
  storage: {},
  ...fields,
})

function caseOf(name: string, target: PreAccount | undefined, to = ''): Case {
  const pre: Record<string, PreAccount> = { [SENDER]: account({ balance: '0x3635c9adc5dea00000' }) }
  if (target) pre[TARGET] = target
  const test: StateTest = {
    env: {
      currentCoinbase: '0x2adc25665018aa1fe0e6bc666dac8fc2697ff9ba',
      currentGasLimit: '0x1c9c380',
      currentNumber: '0x1',
      currentTimestamp: '0x3e8',
      currentBaseFee: '0xa',
      currentRandom: `0x${'00'.repeat(32)}`,
      currentExcessBlobGas: '0x0',
    },
    pre,
    transaction: {
      data: [to ? '0x' : INIT],
      gasLimit: ['0x30d40'],
      value: ['0x1'],
      nonce: '0x0',
      secretKey: KEY,
      to,
      gasPrice: '0xa',
    },
    post: [],
  }
  // the feed's root and logs: not compared here (the trie's outcome is what the re-execution is held to)
  const expected = { indexes: { data: 0, gas: 0, value: 0 }, hash: `0x${'00'.repeat(32)}`, logs: '0x' }
  return { group: 'collision', fork: 'Prague', name, test, expected, id: `collision/${name}` }
}

let upstream: PreStateUpstream
beforeAll(async () => {
  upstream = await PreStateUpstream.start()
})
afterAll(() => upstream?.close())

/** The re-executed and the trie's outcome of `c`, and the eth_getProof calls the re-execution made. */
async function bothWays(c: Case) {
  const before = upstream.asked('eth_getProof')
  const reexecuted = await reexecuteCase(c, upstream)
  return { reexecuted, onTrie: await runTxCase(c), proofs: upstream.asked('eth_getProof') - before }
}

test('a creation onto an account holding only storage collides, as on a trie, for one eth_getProof', async () => {
  const { reexecuted, onTrie, proofs } = await bothWays(caseOf('storage', account({ storage: { '0x07': '0x01' } })))
  expect(reexecuted.invalid).toBeUndefined()
  expect(reexecuted.root).toBe(onTrie.root)
  expect(proofs).toBe(1)
})

test('a creation onto an unused address deploys, as on a trie, for one eth_getProof', async () => {
  const { reexecuted, onTrie, proofs } = await bothWays(caseOf('fresh', undefined))
  expect(reexecuted.root).toBe(onTrie.root)
  expect(proofs).toBe(1)
})

test('a creation onto an account with a nonce collides without asking for its storage root', async () => {
  const { reexecuted, onTrie, proofs } = await bothWays(caseOf('nonce', account({ nonce: '0x1' })))
  expect(reexecuted.root).toBe(onTrie.root)
  expect(proofs).toBe(0)
})

test('a transfer to an account holding only storage asks for no storage root', async () => {
  const c = caseOf('transfer', account({ storage: { '0x07': '0x01' } }), TARGET)
  const { reexecuted, onTrie, proofs } = await bothWays(c)
  expect(reexecuted.root).toBe(onTrie.root)
  expect(proofs).toBe(0)
})

test('an upstream without eth_getProof fails the re-execution of a creation, naming the storage root, not a guess', async () => {
  upstream.refuse('eth_getProof')
  try {
    const { reexecuted } = await bothWays(caseOf('refused', account({ storage: { '0x07': '0x01' } })))
    expect(reexecuted.invalid).toMatch(/storage root a creation's collision check needs did not load/)
  } finally {
    upstream.refuse(undefined)
  }
})

/**
 * The one way the current rules (EIP-6780's SELFDESTRUCT, EIP-7610's collision) leave to clear storage the
 * upstream holds: an account with storage but no nonce, balance or code is empty, so a transaction touching it
 * deletes it and its storage (EIP-161), and a creation can then land there. The follower's state marks it
 * cleared; a slot it fetched before (here for an access list, prefetched before the flashblock runs) must
 * not show through to the new contract.
 */
test('an account holding only storage, emptied by a touch and created onto, shows none of its upstream slots', async () => {
  const target = bytesToHex(generateAddress(hexToBytes(SENDER), bigIntToBytes(1n)))
  const slot = `0x${'07'.padStart(64, '0')}` as const
  const c = caseOf('emptied', undefined, target)
  c.test.pre[target] = account({ storage: { '0x07': '0x01' } })
  // a call with no value: the target stays empty, so it is deleted when the transaction ends
  c.test.transaction.value = ['0x0']
  c.test.transaction.accessLists = [[{ address: target, storageKeys: [slot] }]]
  const common = stateTestCommon(c.fork)
  const touch = txOf(c)
  // the sender's second creation lands on the target; its init code logs slot 7 as it reads it: SLOAD, LOG0
  const create = createTx(
    { nonce: 1n, gasLimit: 200_000n, gasPrice: 10n, data: hexToBytes('0x6007545f5260205fa000') },
    { common },
  ).sign(hexToBytes(KEY))

  // on a trie: the touch deletes the target, the creation deploys there and reads zero
  const { state } = await preState(c.test.pre, common)
  const vm = await createVM({ common: throwawayVmCommon(common), stateManager: state, blockchain: testBlockHashes })
  const block = blockOf(c.test, vm.common)
  await runTx(vm, { tx: touch, block })
  expect(await state.getAccount(createAddressFromString(target))).toBeUndefined()
  const onTrie = await runTx(vm, { tx: create, block })
  expect(bytesToHex(onTrie.createdAddress!.bytes)).toBe(target)
  expect(bytesToHex(onTrie.receipt.logs[0]![2])).toBe(`0x${'00'.repeat(32)}`)

  upstream.serve(c.test.pre, (await preState(c.test.pre, common)).state)
  const result = await reexecute(c, [touch.serialize(), create.serialize()], upstream)
  if (result.kind !== 'applied') throw new Error(result.reason)
  // the upstream's slot was fetched (the access list's prefetch), then the touch cleared the account
  expect(result.state.snapshot.loadedStorage(hexToBytes(target), hexToBytes(slot))).toEqual(Uint8Array.of(1))
  const [, created] = result.flashblock.executed.receipts
  expect(created!.status).toBe(1)
  expect(bytesToHex(created!.logs[0]!.data)).toBe(`0x${'00'.repeat(32)}`)
  expect(await rebuiltRoot(c, result.state)).toBe(bytesToHex(await state.getStateRoot()))
})
