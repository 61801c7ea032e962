/**
 * The handler map the transport dispatches to, one entry per served method (aliases dispatch to their
 * target through the method table). A method of the document without a handler here is a compile error;
 * only eth_subscribe/eth_unsubscribe are left out: they act on a WebSocket connection, so
 * src/server/websocket.ts supplies them per connection.
 */
import type { MethodHandlers } from '../../generated/methods.js'
import type { HandlerContext } from './context.js'
import { eth_chainId } from './eth/chainId.js'
import { eth_capabilities } from './eth/capabilities.js'
import { eth_config } from './eth/config.js'
import { eth_blockNumber } from './eth/blockNumber.js'
import { eth_getBalance } from './eth/getBalance.js'
import { eth_getTransactionCount } from './eth/getTransactionCount.js'
import { eth_getCode } from './eth/getCode.js'
import { eth_getStorageAt } from './eth/getStorageAt.js'
import { eth_getProof } from './eth/getProof.js'
import { eth_getStorageValues } from './eth/getStorageValues.js'
import { eth_getBlockByNumber } from './eth/getBlockByNumber.js'
import { eth_getBlockByHash } from './eth/getBlockByHash.js'
import {
  eth_getBlockTransactionCountByHash,
  eth_getBlockTransactionCountByNumber,
} from './eth/getBlockTransactionCount.js'
import { eth_getBlockReceipts } from './eth/getBlockReceipts.js'
import { eth_getRawTransactionByHash, eth_getTransactionByHash } from './eth/getTransactionByHash.js'
import {
  eth_getTransactionByBlockHashAndIndex,
  eth_getTransactionByBlockNumberAndIndex,
} from './eth/getTransactionByBlockAndIndex.js'
import { eth_getTransactionReceipt } from './eth/getTransactionReceipt.js'
import { eth_getLogs } from './eth/getLogs.js'
import {
  eth_getFilterChanges,
  eth_getFilterLogs,
  eth_newBlockFilter,
  eth_newFilter,
  eth_newPendingTransactionFilter,
  eth_uninstallFilter,
} from './eth/filters.js'
import { eth_getCompilers } from './eth/getCompilers.js'
import { eth_protocolVersion } from './eth/protocolVersion.js'
import { eth_syncing } from './eth/syncing.js'
import {
  eth_getUncleByBlockHashAndIndex,
  eth_getUncleByBlockNumberAndIndex,
  eth_getUncleCountByBlockHash,
  eth_getUncleCountByBlockNumber,
} from './eth/uncles.js'
// submitting, dev accounts, fees, execution and tracing
import { eth_sendRawTransaction } from './eth/sendRawTransaction.js'
import { eth_sendRawTransactionSync } from './eth/sendRawTransactionSync.js'
import { eth_sendTransaction } from './eth/sendTransaction.js'
import { eth_fillTransaction } from './eth/fillTransaction.js'
import { eth_sign } from './eth/sign.js'
import { eth_signTransaction } from './eth/signTransaction.js'
import { eth_signTypedData_v4 } from './eth/signTypedData.js'
import { personal_sign } from './personal/sign.js'
import { eth_accounts } from './eth/accounts.js'
import { eth_gasPrice } from './eth/gasPrice.js'
import { eth_maxPriorityFeePerGas } from './eth/maxPriorityFeePerGas.js'
import { eth_baseFee, eth_blobBaseFee } from './eth/baseFees.js'
import { eth_feeHistory } from './eth/feeHistory.js'
import { eth_flashblocksEnabled, eth_flashblocksPeerStatus } from './eth/flashblocks.js'
import { eth_call } from './eth/call.js'
import { eth_createAccessList } from './eth/createAccessList.js'
import { eth_simulateV1 } from './eth/simulateV1.js'
import { eth_estimateGas } from './eth/estimateGas.js'
import { debug_traceTransaction } from './debug/traceTransaction.js'
import { debug_traceCall } from './debug/traceCall.js'
import { debug_traceBlockByHash, debug_traceBlockByNumber } from './debug/traceBlock.js'
import { debug_getRawBlock, debug_getRawHeader, debug_getRawReceipts, debug_getRawTransaction } from './debug/raw.js'
import { net_listening } from './net/listening.js'
import { net_version } from './net/version.js'
import { op_supportedCapabilities } from './op/supportedCapabilities.js'
import { rpc_discover } from './rpc/discover.js'
import { txpool_content, txpool_contentFrom, txpool_status } from './txpool/content.js'
import { web3_clientVersion } from './web3/clientVersion.js'
import { web3_sha3 } from './web3/sha3.js'
// the dev node's (served only where dev methods are on; the hardhat_* and anvil_ spellings of evm_* are aliases)
import {
  anvil_dumpState,
  anvil_loadState,
  anvil_setBalance,
  anvil_addBalance,
  anvil_setCode,
  anvil_setNonce,
  anvil_setStorageAt,
} from './anvil/state.js'
import {
  anvil_autoImpersonateAccount,
  eth_sendUnsignedTransaction,
  anvil_impersonateAccount,
  anvil_stopImpersonatingAccount,
} from './anvil/impersonation.js'
import {
  anvil_getAutomine,
  anvil_mine,
  anvil_removeBlockTimestampInterval,
  anvil_setBlockTimestampInterval,
  anvil_setCoinbase,
  anvil_setMinGasPrice,
  anvil_setNextBlockBaseFeePerGas,
} from './anvil/blocks.js'
import { anvil_dropAllTransactions, anvil_dropTransaction } from './anvil/pool.js'
import { anvil_metadata, anvil_nodeInfo, anvil_reset, anvil_setLoggingEnabled } from './anvil/node.js'
import { evm_mine, evm_setAutomine, evm_setBlockGasLimit, evm_setIntervalMining } from './evm/mine.js'
import { evm_increaseTime, evm_setNextBlockTimestamp } from './evm/time.js'
import { evm_revert, evm_snapshot } from './evm/snapshot.js'
import { txpool_inspect } from './txpool/inspect.js'

export type ConnectionMethod = 'eth_subscribe' | 'eth_unsubscribe'

export const handlers: Omit<MethodHandlers<HandlerContext>, ConnectionMethod> = {
  web3_clientVersion,
  web3_sha3,
  net_version,
  net_listening,
  eth_chainId,
  eth_config,
  eth_capabilities,
  eth_protocolVersion,
  eth_getCompilers,
  eth_syncing,
  eth_getUncleCountByBlockHash,
  eth_getUncleCountByBlockNumber,
  eth_getUncleByBlockHashAndIndex,
  eth_getUncleByBlockNumberAndIndex,
  txpool_content,
  txpool_contentFrom,
  txpool_status,
  // read side: state, blocks, transactions, receipts
  eth_blockNumber,
  eth_getBalance,
  eth_getTransactionCount,
  eth_getCode,
  eth_getStorageAt,
  eth_getStorageValues,
  eth_getProof,
  eth_getBlockByNumber,
  eth_getBlockByHash,
  eth_getBlockTransactionCountByNumber,
  eth_getBlockTransactionCountByHash,
  eth_getBlockReceipts,
  eth_getTransactionByHash,
  eth_getRawTransactionByHash,
  eth_getTransactionByBlockHashAndIndex,
  eth_getTransactionByBlockNumberAndIndex,
  eth_getTransactionReceipt,
  // logs and polling filters
  eth_getLogs,
  eth_newFilter,
  eth_newBlockFilter,
  eth_newPendingTransactionFilter,
  eth_getFilterChanges,
  eth_getFilterLogs,
  eth_uninstallFilter,
  // submitting, dev accounts, fees, execution and tracing
  eth_sendRawTransaction,
  eth_sendRawTransactionSync,
  eth_flashblocksEnabled,
  eth_flashblocksPeerStatus,
  eth_sendTransaction,
  eth_fillTransaction,
  eth_sign,
  eth_signTransaction,
  personal_sign,
  eth_signTypedData_v4,
  eth_accounts,
  eth_gasPrice,
  eth_maxPriorityFeePerGas,
  eth_feeHistory,
  eth_baseFee,
  eth_blobBaseFee,
  eth_call,
  eth_simulateV1,
  eth_estimateGas,
  eth_createAccessList,
  debug_traceTransaction,
  debug_traceCall,
  debug_traceBlockByNumber,
  debug_traceBlockByHash,
  debug_getRawBlock,
  debug_getRawHeader,
  debug_getRawReceipts,
  debug_getRawTransaction,
  op_supportedCapabilities,
  'rpc.discover': rpc_discover,
  // the dev node's
  anvil_setBalance,
  anvil_addBalance,
  anvil_setCode,
  anvil_setNonce,
  anvil_setStorageAt,
  anvil_dumpState,
  anvil_loadState,
  anvil_impersonateAccount,
  anvil_stopImpersonatingAccount,
  anvil_autoImpersonateAccount,
  eth_sendUnsignedTransaction,
  anvil_mine,
  anvil_getAutomine,
  anvil_setBlockTimestampInterval,
  anvil_removeBlockTimestampInterval,
  anvil_setNextBlockBaseFeePerGas,
  anvil_setMinGasPrice,
  anvil_setCoinbase,
  anvil_dropTransaction,
  anvil_dropAllTransactions,
  anvil_reset,
  anvil_nodeInfo,
  anvil_metadata,
  anvil_setLoggingEnabled,
  evm_mine,
  evm_snapshot,
  evm_revert,
  evm_increaseTime,
  evm_setNextBlockTimestamp,
  evm_setAutomine,
  evm_setIntervalMining,
  evm_setBlockGasLimit,
  txpool_inspect,
}
