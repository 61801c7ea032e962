import { MerklePatriciaTrie } from '@ethereumjs/mpt'
import { MerkleStateManager } from '@ethereumjs/statemanager'
import { Account, createAddressFromString, hexToBytes, MapDB } from '@ethereumjs/util'
import { createVM } from '@ethereumjs/vm'
import { describe, expect, test } from 'vitest'
import { isolatedStateAt } from './state-views.js'

const ACCOUNT = createAddressFromString('0x00000000000000000000000000000000000c0ffe')
const SLOT = hexToBytes(`0x${'01'.padStart(64, '0')}`)

describe('an isolated state (what eth_simulateV1 writes to)', () => {
  test('computes new state roots over the chain’s nodes without adding a node to the chain’s store', async () => {
    const store = new Map<string, Uint8Array>()
    const trie = new MerklePatriciaTrie({ useKeyHashing: true, db: new MapDB(store) })
    const vm = await createVM({ stateManager: new MerkleStateManager({ trie }) })
    await vm.stateManager.putAccount(ACCOUNT, new Account(0n, 1n))
    const root = await vm.stateManager.getStateRoot()
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
