/**
 * The handler map the transport dispatches to, one entry per served method (aliases dispatch to their
 * target through the method table). Typed Partial until the chain-backed handlers land; then it becomes
 * `MethodHandlers<HandlerContext>` and a method without a handler is a compile error.
 */
import type { MethodHandlers } from '../../generated/methods.js'
import type { HandlerContext } from './context.js'
import { eth_chainId } from './eth/chainId.js'
import { eth_getCompilers } from './eth/getCompilers.js'
import { eth_protocolVersion } from './eth/protocolVersion.js'
import { eth_syncing } from './eth/syncing.js'
import {
  eth_getUncleByBlockHashAndIndex,
  eth_getUncleByBlockNumberAndIndex,
  eth_getUncleCountByBlockHash,
  eth_getUncleCountByBlockNumber,
} from './eth/uncles.js'
import { net_listening } from './net/listening.js'
import { net_version } from './net/version.js'
import { op_supportedCapabilities } from './op/supportedCapabilities.js'
import { rpc_discover } from './rpc/discover.js'
import { txpool_content } from './txpool/content.js'
import { web3_clientVersion } from './web3/clientVersion.js'
import { web3_sha3 } from './web3/sha3.js'

export const handlers: Partial<MethodHandlers<HandlerContext>> = {
  web3_clientVersion,
  web3_sha3,
  net_version,
  net_listening,
  eth_chainId,
  eth_protocolVersion,
  eth_getCompilers,
  eth_syncing,
  eth_getUncleCountByBlockHash,
  eth_getUncleCountByBlockNumber,
  eth_getUncleByBlockHashAndIndex,
  eth_getUncleByBlockNumberAndIndex,
  txpool_content,
  op_supportedCapabilities,
  'rpc.discover': rpc_discover,
}
