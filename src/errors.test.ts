import { readFileSync } from 'node:fs'
import { load } from 'js-yaml'
import { describe, expect, test } from 'vitest'
import * as errors from './errors.js'

type Documented = { code: number; message: string }
type NamedClass = { code: number; template: string; name: string }

const document = load(readFileSync(new URL('../openrpc/errors.yaml', import.meta.url), 'utf8')) as Record<
  string,
  Documented
>
const classes = Object.values(errors).filter(
  (value): value is NamedClass & typeof errors.RpcError => typeof value === 'function' && 'template' in value,
)

describe('the named errors of openrpc/errors.yaml', () => {
  test.each(Object.entries(document))(
    '%s has its class in src/errors.ts with the same code and text',
    (name, entry) => {
      const named = (errors as Record<string, unknown>)[`${name}Error`] as NamedClass | undefined
      expect(named, `src/errors.ts exports no ${name}Error`).toBeDefined()
      expect(named!.code).toBe(entry.code)
      expect(named!.template).toBe(entry.message)
    },
  )

  test('every error class with a template is a named error of the document', () => {
    const undocumented = classes.map((c) => c.name.replace(/Error$/, '')).filter((name) => !(name in document))
    expect(undocumented).toEqual([])
  })

  test('an error whose text never varies answers exactly the documented text and code', () => {
    for (const named of classes) {
      if (named.template.includes('<') || named.template.includes('|')) continue
      if (named.length > 0) continue // the constructor takes the values of its text
      const error = new (named as unknown as new () => errors.RpcError)()
      expect(error.toJSON()).toEqual({ code: named.code, message: named.template })
    }
  })
})
