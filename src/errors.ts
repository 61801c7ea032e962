/**
 * Every error the service answers with, as classes carrying their JSON-RPC code (EIP-1474 / geth).
 * Handlers and the chain throw these; `toJsonRpcError` is the one place that turns anything thrown
 * into a wire error object, so an unexpected exception becomes -32603 without a stack trace. Each named
 * error of openrpc/errors.yaml is the class of the same name + `Error`, whose static `template` is the
 * document's message (errors.test.ts holds the two together).
 */
export * from './errors/dev-node.js'
export * from './errors/follower.js'
export * from './errors/gasless.js'
export * from './errors/geth.js'
export * from './errors/rpc-error.js'
export * from './errors/shared-state.js'
export * from './errors/simulate.js'
export * from './errors/transport.js'
