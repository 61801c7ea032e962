import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { emitDocs } from './emit-docs.js'
import { loadDocument } from './load-document.js'

const loaded = await loadDocument(join(import.meta.dirname, 'fixtures'))

describe('the docs page generator', () => {
  test('writes one page with a section per method and per schema', () => {
    const [page] = emitDocs(loaded, 'openrpc/')
    expect(page!.path).toBe('docs/index.html')
    for (const method of loaded.methods)
      expect(page!.text).toContain(`<section class="method" id="method-${method.name}">`)
    for (const [name] of loaded.schemas) expect(page!.text).toContain(`id="schema-${name}"`)
  })

  test('escapes what the document says, so a description cannot inject markup', () => {
    const method = { ...loaded.methods[0]!, description: 'Reads <script>alert(1)</script> & `code`' }
    const [page] = emitDocs({ ...loaded, methods: [method] }, 'openrpc/')
    expect(page!.text).not.toContain('<script>')
    expect(page!.text).toContain('Reads &lt;script&gt;alert(1)&lt;/script&gt; &amp; <code>code</code>')
  })

  test('gives the same bytes every time', () => {
    expect(emitDocs(loaded, 'openrpc/')[0]!.text).toBe(emitDocs(loaded, 'openrpc/')[0]!.text)
  })
})
