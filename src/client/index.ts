/**
 * `preconf-rpc/client`: the typed JSON-RPC client generated from the OpenRPC document (one function per
 * method, over HTTP or WebSocket) and viem chain definitions with preconfirmations.
 */
export {
  createHttpClient,
  createWsClient,
  RpcResponseError,
  type RpcCall,
  type RpcClient,
  type RpcErrorObject,
  type RpcMethods,
  type RpcOutcome,
  type Subscription,
  type WsRpcClient,
} from '../../generated/client.js'
export type { MethodName, Methods } from '../../generated/methods.js'
export { PRECONFIRMATION_TIME_MS, preconfRpcChain, xLayerPreconf, xLayerTestnetPreconf } from './chains.js'
