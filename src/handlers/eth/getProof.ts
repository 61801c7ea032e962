import { setLengthLeft } from '@ethereumjs/util'
import { parseData } from '../../format/hex.js'
import { formatAccountProof } from '../../format/proof.js'
import { stateView } from '../block-param.js'
import type { Handler } from '../context.js'

/**
 * eth_getProof (EIP-1186): the account and the asked slots with their trie proofs against the block's
 * state root (the embedded chain's own trie; a follower's upstream). Short keys are left-padded, as geth.
 */
export const eth_getProof: Handler<'eth_getProof'> = async ([address, keys, block], ctx) => {
  const state = await stateView(ctx, block)
  const account = parseData(address)
  const proof = await state.proof(
    account,
    keys.map((key) => setLengthLeft(parseData(key), 32)),
  )
  return formatAccountProof(account, keys, proof)
}
