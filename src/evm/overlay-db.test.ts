import { Account, createAddressFromString, hexToBytes } from '@ethereumjs/util'
import { createVM } from '@ethereumjs/vm'
import { describe, expect, test } from 'vitest'
import { isolatedStateAt } from './engine.js'

const ACCOUNT = createAddressFromString('0x00000000000000000000000000000000000c0ffe')
const SLOT = hexToBytes(`0x${'01'.padStart(64, '0')}`)

describe('an isolated state (what eth_simulateV1 writes to)', () => {
  test('computes new state roots over the chain’s nodes without adding a node to the chain’s store', async () => {
    const vm = await createVM()
    await vm.stateManager.putAccount(ACCOUNT, new Account(0n, 1n))
    const root = await vm.stateManager.getStateRoot()
    const store = (
      vm.stateManager as unknown as { _trie: { database(): { db: { _database: Map<string, unknown> } } } }
    )._trie.database().db._database
    const nodes = store.size

    const isolated = isolatedStateAt(vm, root)
    expect((await isolated.getAccount(ACCOUNT))?.balance).toBe(1n)
    await isolated.putStorage(ACCOUNT, SLOT, hexToBytes('0x2a'))
    await isolated.putCode(ACCOUNT, hexToBytes('0x6001'))
    const changed = await isolated.getStateRoot()

    expect(changed).not.toEqual(root)
    expect(await isolated.getStorage(ACCOUNT, SLOT)).toEqual(hexToBytes('0x2a'))
    expect(store.size).toBe(nodes)
  })
})
