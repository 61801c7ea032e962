/**
 * generated/client.ts: the typed client the project's own tests use, over HTTP (fetch) and WebSocket (ws):
 * `client.request('eth_getBalance', [address, 'pending'])` or `client.eth_getBalance(address, 'pending')`,
 * both checked against `Methods`. The transport code is fixed (client-statements.ts); this adds the methods.
 */
import { StructureKind, type InterfaceDeclarationStructure, type MethodSignatureStructure, type Project } from 'ts-morph'
import { clientCore, clientInterfaces, clientTypes, wsClient } from './client-statements.js'
import type { LoadedDocument } from './model.js'
import { docText, headerLine, printSourceFile, propertyKey, quote, type GeneratedFile } from './ts-project.js'

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

export function emitClient(project: Project, loaded: LoadedDocument, source: string): GeneratedFile {
  const names = loaded.methods.map((method) => quote(method.name))
  return printSourceFile(project, 'client.ts', headerLine('emit-client.ts', source), [
    "import WebSocket from 'ws'",
    "import type { MethodName, Methods } from './methods.js'",
    ...clientTypes,
    rpcMethods(loaded),
    ...clientInterfaces,
    `const methodNames: readonly MethodName[] = [\n${names.join(',\n')},\n]`,
    ...clientCore,
    ...wsClient,
  ])
}
