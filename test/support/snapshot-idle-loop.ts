/**
 * Makes the state snapshot of a small state trie in a process that has nothing else to do, and prints, when
 * the event loop runs dry, whether the snapshot was made (src/chain/state-snapshot.test.ts): its parts must
 * keep the loop turning, not wait for something else to wake it.
 */
import { Common, Mainnet } from '@ethereumjs/common'
import { decodeMPTNode } from '@ethereumjs/mpt'
import { RLP } from '@ethereumjs/rlp'
import { hexKey } from '../../src/domain/map-keys.js'
import { keccak256 } from '../../src/evm/crypto.js'
import { StateSnapshot } from '../../src/evm/state-snapshot.js'
import { memoryTrie } from '../../src/evm/state-views.js'

const nodes = new Map<string, Uint8Array>()
const trie = memoryTrie(new Common({ chain: Mainnet }), nodes)
for (let i = 0; i < 500; i++)
  await trie.put(
    keccak256(Uint8Array.of(i >> 8, i & 255)),
    RLP.encode([1, 1000 + i, trie.EMPTY_TRIE_ROOT, keccak256(new Uint8Array(0))]),
  )
const snapshot = new StateSnapshot((hash) => decodeMPTNode(nodes.get(hexKey(hash))!))
snapshot.make(trie.root())
process.once('beforeExit', () => {
  console.log(`snapshot made: ${snapshot.ready}`)
  snapshot.close()
})
