/**
 * generated/client.ts: the typed client the project's own tests use, over HTTP (fetch) and WebSocket (ws):
 * `client.request('eth_getBalance', [address, 'pending'])` or `client.eth_getBalance(address, 'pending')`,
 * both checked against `Methods`. The transport code is src/client/ (json-rpc.ts, http-client.ts,
 * ws-client.ts); this emits what depends on the document: the documented `RpcMethods`, the method names,
 * and the client types and constructors bound to `Methods`.
 */
import {
  StructureKind,
  type InterfaceDeclarationStructure,
  type MethodSignatureStructure,
  type Project,
} from 'ts-morph'
import type { LoadedDocument } from './model.js'
import {
  docText,
  headerLine,
  printSourceFile,
  propertyKey,
  quote,
  type GeneratedFile,
  type Statement,
} from './ts-project.js'

function rpcMethods(loaded: LoadedDocument): InterfaceDeclarationStructure {
  const methods = loaded.methods.map((method): MethodSignatureStructure => {
    const key = quote(method.name)
    return {
      kind: StructureKind.MethodSignature,
      name: propertyKey(method.name),
      parameters: [{ name: 'params', isRestParameter: true, type: `Methods[${key}]['params']` }],
      returnType: `Promise<Methods[${key}]['result']>`,
      docs: [docText(method.summary, method.aliasOf ? `Alias of ${method.aliasOf}.` : undefined)],
    }
  })
  return {
    kind: StructureKind.Interface,
    name: 'RpcMethods',
    isExported: true,
    docs: ['One typed function per method: `client.eth_getBalance(address, block)`.'],
    methods,
  }
}

const imports: Statement[] = [
  "import { createHttpRpcClient } from '../src/client/http-client.js'",
  "import type { JsonRpcClient, RpcCallOf } from '../src/client/json-rpc.js'",
  "import { createWsRpcClient, type WsConnection } from '../src/client/ws-client.js'",
  "import type { MethodName, Methods } from './methods.js'",
  "export { RpcResponseError, type RpcErrorObject, type RpcOutcome } from '../src/client/json-rpc.js'",
  "export type { Subscription } from '../src/client/ws-client.js'",
]

const clientTypes: Statement[] = [
  '/** One entry of a batch, typed by method. */\nexport type RpcCall = RpcCallOf<Methods>',
  'export type RpcClient = RpcMethods & JsonRpcClient<Methods>',
  'export type WsRpcClient = RpcClient & WsConnection',
]

const constructors: Statement[] = [
  `/** A client over HTTP POST (one request per call; batches as one array body). */
export function createHttpClient(url: string): RpcClient {
  return createHttpRpcClient<Methods>(url, methodNames)
}`,
  `/** A client over one WebSocket; replies are matched by id, notifications queued per subscription. */
export function createWsClient(url: string): Promise<WsRpcClient> {
  return createWsRpcClient<Methods>(url, methodNames)
}`,
]

export function emitClient(project: Project, loaded: LoadedDocument, source: string): GeneratedFile {
  const names = loaded.methods.map((method) => quote(method.name))
  return printSourceFile(project, 'client.ts', headerLine('emit-client.ts', source), [
    ...imports,
    rpcMethods(loaded),
    ...clientTypes,
    `const methodNames: readonly MethodName[] = [\n${names.join(',\n')},\n]`,
    ...constructors,
  ])
}
