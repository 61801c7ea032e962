import { keccak256 } from '../../evm/crypto.js'
import { data, parseData } from '../../format/hex.js'
import type { Handler } from '../context.js'

/** web3_sha3: Keccak-256 of the given bytes (Ethereum's pre-standard SHA3, not FIPS SHA3-256). */
export const web3_sha3: Handler<'web3_sha3'> = ([input]) => data(keccak256(parseData(input)))
