/**
 * generated/docs/index.html: the published reference, one static page from the document (no framework,
 * no script, no external URL): every method with its endpoints, what `pending` means there, params,
 * result, examples and errors, then every component schema. Served at GET /docs.
 */
import { parseSchemaRef, type Endpoint, type LoadedDocument, type MethodModel, type Schema } from './model.js'
import { headerLine, type GeneratedFile } from './ts-project.js'

const ENDPOINT_PATHS: Record<Endpoint, string> = { general: 'POST /', flashblocks: 'POST /flashblocks' }

/** What the `pending` tag reads on each endpoint (docs/design/flashblocks.md Part 1). */
const PENDING_MEANING: Record<Endpoint, string> = {
  flashblocks:
    'the newest flashblock: the block being built, with every transaction preconfirmed so far (at most ~200 ms old)',
  general: 'the latest canonical block, as a node without preconfirmations answers',
}

const STYLE = `
body{font:15px/1.5 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:0;color:#1d2330;background:#fafbfc}
header{padding:24px 32px;background:#13213c;color:#fff}header h1{margin:0 0 6px}header p{margin:4px 0;max-width:70em;color:#d6dcea}
main{display:grid;grid-template-columns:300px minmax(0,1fr);gap:24px;padding:24px 32px}
nav{position:sticky;top:12px;align-self:start;max-height:95vh;overflow:auto;font-size:13px}nav a{display:block;color:#24407a;text-decoration:none;padding:1px 0}
nav h2{font-size:13px;text-transform:uppercase;color:#667;margin:12px 0 4px}
section{background:#fff;border:1px solid #e1e4ea;border-radius:8px;padding:16px 20px;margin-bottom:18px}
section h2{margin:0 0 4px;font-family:ui-monospace,Menlo,monospace;font-size:19px}
.tags span{display:inline-block;font-size:12px;border-radius:10px;padding:1px 9px;margin:0 6px 6px 0;background:#eef1f6}
.tags .fb{background:#fff1d6}.tags .ext{background:#e4f5ea}
table{border-collapse:collapse;width:100%;margin:6px 0 10px}td,th{border-bottom:1px solid #eceef2;text-align:left;padding:4px 8px;vertical-align:top;font-size:14px;overflow-wrap:anywhere}
code,pre{font-family:ui-monospace,Menlo,monospace;font-size:13px}pre{background:#f4f6f9;padding:10px;border-radius:6px;overflow:auto;max-height:360px;white-space:pre-wrap;word-break:break-all}
h3{font-size:15px;margin:14px 0 4px}.muted{color:#667}`

function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;')
}

/** Escaped text with the document's `code` spans kept as <code>. */
function prose(text: string): string {
  return escapeHtml(text).replace(/`([^`]+)`/g, '<code>$1</code>')
}

/** `Block`, or `ExecutionPayloadV1.properties.parentHash` for a ref into a component's inside. */
function refLink(ref: string): string {
  const parsed = parseSchemaRef(ref)
  if (!parsed) return escapeHtml(ref)
  const text = [parsed.component, ...parsed.pointer].join('.')
  return `<a href="#schema-${escapeHtml(parsed.component)}">${escapeHtml(text)}</a>`
}

/** A schema as a short phrase with links to the named schemas it uses. */
function schemaText(schema: Schema | undefined): string {
  if (!schema) return 'any'
  if (typeof schema.$ref === 'string') return refLink(schema.$ref)
  for (const key of ['oneOf', 'anyOf'] as const) {
    if (Array.isArray(schema[key])) return (schema[key] as Schema[]).map(schemaText).join(' | ')
  }
  if (Array.isArray(schema.enum))
    return schema.enum.map((value) => `<code>${escapeHtml(JSON.stringify(value))}</code>`).join(' | ')
  if ('const' in schema) return `<code>${escapeHtml(JSON.stringify(schema.const))}</code>`
  if (schema.type === 'array') return `array of ${schemaText(schema.items as Schema | undefined)}`
  const type = Array.isArray(schema.type) ? schema.type.join(' | ') : String(schema.type ?? 'any')
  const title = typeof schema.title === 'string' ? ` (${escapeHtml(schema.title)})` : ''
  const pattern = typeof schema.pattern === 'string' ? ` matching <code>${escapeHtml(schema.pattern)}</code>` : ''
  return `${escapeHtml(type)}${title}${pattern}`
}

function json(value: unknown): string {
  return `<pre>${escapeHtml(JSON.stringify(value, null, 2))}</pre>`
}

function paramsTable(method: MethodModel): string {
  if (method.params.length === 0) return '<p class="muted">No params.</p>'
  const rows = method.params.map(
    (param) =>
      `<tr><td><code>${escapeHtml(param.name)}</code></td><td>${param.required ? 'required' : 'optional'}</td><td>${schemaText(param.schema)}</td><td>${prose(param.description ?? '')}</td></tr>`,
  )
  return `<table><tr><th>name</th><th></th><th>schema</th><th>description</th></tr>${rows.join('')}</table>`
}

function examples(method: MethodModel): string {
  return method.examples
    .map((example) => {
      const request = { jsonrpc: '2.0', id: 1, method: method.name, params: example.params.map((param) => param.value) }
      const where = example.endpoint ? ` <span class="muted">(on ${ENDPOINT_PATHS[example.endpoint]})</span>` : ''
      return `<h4>${prose(example.name)}${where}</h4>${json(request)}${example.result ? json(example.result.value) : ''}`
    })
    .join('')
}

type ErrorObject = { code: number; message: string }

function errorsOf(raw: Record<string, unknown> | undefined, components: Record<string, unknown>): ErrorObject[] {
  const list = Array.isArray(raw?.errors) ? (raw.errors as Record<string, unknown>[]) : []
  return list
    .map((error) => {
      const ref = typeof error.$ref === 'string' ? error.$ref.split('/').pop()! : undefined
      return (ref ? components[ref] : error) as ErrorObject
    })
    .filter((error): error is ErrorObject => typeof error?.code === 'number')
}

function errorsTable(errors: ErrorObject[]): string {
  if (errors.length === 0) return ''
  const rows = errors.map(
    (error) => `<tr><td><code>${error.code}</code></td><td><code>${escapeHtml(error.message)}</code></td></tr>`,
  )
  return `<h3>Errors</h3><table><tr><th>code</th><th>message</th></tr>${rows.join('')}</table>`
}

function pendingNote(method: MethodModel): string {
  if (!method.pending) return ''
  const lines = method.endpoints.map(
    (endpoint) => `<li>on <code>${ENDPOINT_PATHS[endpoint]}</code>: ${PENDING_MEANING[endpoint]}</li>`,
  )
  return `<h3>The <code>pending</code> tag</h3><ul>${lines.join('')}</ul>`
}

function methodSection(
  method: MethodModel,
  raw: Record<string, unknown> | undefined,
  errorComponents: Record<string, unknown>,
): string {
  const tags = [
    ...method.endpoints.map(
      (endpoint) => `<span class="${endpoint === 'flashblocks' ? 'fb' : ''}">${ENDPOINT_PATHS[endpoint]}</span>`,
    ),
    method.extension ? '<span class="ext">extension</span>' : '',
    method.websocketOnly ? '<span>WebSocket only</span>' : '',
    method.devNode ? '<span>dev node</span>' : '',
    method.aliasOf
      ? `<span>alias of <a href="#method-${escapeHtml(method.aliasOf)}">${escapeHtml(method.aliasOf)}</a></span>`
      : '',
  ].join('')
  return `<section class="method" id="method-${escapeHtml(method.name)}">
<h2>${escapeHtml(method.name)}</h2><div class="tags">${tags}</div>
<p><strong>${prose(method.summary)}</strong></p><p>${prose(method.description)}</p>
${pendingNote(method)}<h3>Params</h3>${paramsTable(method)}
<h3>Result</h3><p><code>${escapeHtml(method.result.name)}</code>: ${schemaText(method.result.schema)}</p>
${errorsTable(errorsOf(raw, errorComponents))}<h3>Examples</h3>${examples(method)}
</section>`
}

function schemaSection([name, schema]: [string, Schema]): string {
  const properties = (schema.properties ?? {}) as Record<string, Schema>
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : [])
  const rows = Object.entries(properties).map(
    ([key, property]) =>
      `<tr><td><code>${escapeHtml(key)}</code></td><td>${required.has(key) ? 'required' : ''}</td><td>${schemaText(property)}</td><td>${prose(String(property.description ?? ''))}</td></tr>`,
  )
  const table =
    rows.length > 0
      ? `<table><tr><th>field</th><th></th><th>schema</th><th>description</th></tr>${rows.join('')}</table>`
      : ''
  return `<section class="schema" id="schema-${escapeHtml(name)}"><h2>${escapeHtml(name)}</h2>
<p><strong>${prose(String(schema.title ?? ''))}</strong> ${prose(String(schema.description ?? ''))}</p>
<p>${schemaText({ ...schema, title: undefined, properties: undefined })}</p>${table}</section>`
}

export function emitDocs(loaded: LoadedDocument, source: string): GeneratedFile[] {
  const { document, methods, schemas } = loaded
  const rawByName = new Map(document.methods.map((method) => [method.name, method as Record<string, unknown>]))
  const errorComponents = (document.components.errors ?? {}) as Record<string, unknown>
  const nav = [
    '<h2>Methods</h2>',
    ...methods.map((m) => `<a href="#method-${escapeHtml(m.name)}">${escapeHtml(m.name)}</a>`),
    '<h2>Schemas</h2>',
    ...schemas.map(([name]) => `<a href="#schema-${escapeHtml(name)}">${escapeHtml(name)}</a>`),
  ].join('\n')
  const html = `<!doctype html>
<!-- ${headerLine('emit-docs.ts', source).replace(/^\/\/ /, '')} -->
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(document.info.title)} ${escapeHtml(document.info.version)}: JSON-RPC reference</title><style>${STYLE}</style></head>
<body><header><h1>${escapeHtml(document.info.title)} <span class="muted">${escapeHtml(document.info.version)}</span></h1>
<p>${prose(document.info.description ?? '')}</p>
<p>${methods.length} methods. The OpenRPC documents: <code>rpc.discover</code> on each endpoint.</p></header>
<main><nav>${nav}</nav><div>
${methods.map((method) => methodSection(method, rawByName.get(method.name), errorComponents)).join('\n')}
${schemas.map(schemaSection).join('\n')}
</div></main></body></html>
`
  return [{ path: 'docs/index.html', text: html }]
}
