import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { ts } from 'ts-morph'
import { expect, test } from 'vitest'

/**
 * Every reach into @ethereumjs's internals lives in this folder, where installEvmPatches checks it at
 * start-up. A source scan of src/ outside it, by the forms such a reach takes: a member named with a leading
 * underscore (`x._trie`, `x['_trie']`, a cast to `{ _trie: … }`), a cast to a type naming a member that an
 * @ethereumjs class declares private or protected (`as unknown as { checkpointed: boolean }`), a
 * prototype of an @ethereumjs class, and a method runTx calls replaced on an instance (`tx.getSenderAddress = …`,
 * `Object.assign(tx, { getSenderAddress })`).
 */
/** Public methods that @ethereumjs's own code calls, so replacing one on an instance changes how it runs. */
const RUN_METHODS = new Set(['getSenderAddress'])

const here = dirname(fileURLToPath(import.meta.url))
const src = join(here, '../..')
const root = join(src, '..')

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return path === here ? [] : sourceFiles(path)
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : []
  })
}

/** Member names @ethereumjs's classes declare private or protected, from their declaration files. */
function hiddenMembers(): Set<string> {
  const names = new Set<string>()
  const scope = join(root, 'node_modules/@ethereumjs')
  for (const pkg of readdirSync(scope)) {
    const dist = join(scope, pkg, 'dist/esm')
    const files = readdirSync(dist, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.d.ts'))
    for (const file of files)
      for (const [, name] of readFileSync(join(dist, file), 'utf8').matchAll(
        /^\s+(?:private|protected)\s+(?:static\s+)?(?:readonly\s+)?(\w+)/gm,
      ))
        names.add(name!)
  }
  return names
}

/** Names the file imports from an @ethereumjs package. */
function ethereumjsImports(file: ts.SourceFile): Set<string> {
  const names = new Set<string>()
  for (const statement of file.statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue
    if (!statement.moduleSpecifier.text.startsWith('@ethereumjs/')) continue
    const bindings = statement.importClause?.namedBindings
    if (bindings && ts.isNamedImports(bindings)) for (const el of bindings.elements) names.add(el.name.text)
  }
  return names
}

function reaches(path: string, hidden: Set<string>): string[] {
  const text = readFileSync(path, 'utf8')
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true)
  const imported = ethereumjsImports(file)
  const found: string[] = []
  const at = (node: ts.Node, what: string) => {
    const { line } = file.getLineAndCharacterOfPosition(node.getStart())
    found.push(`${relative(root, path)}:${line + 1}: ${what}`)
  }
  const visit = (node: ts.Node): void => {
    if (ts.isPropertyAccessExpression(node)) {
      const name = node.name.text
      if (name.startsWith('_')) at(node, `.${name}`)
      if (name === 'prototype' && ts.isIdentifier(node.expression) && imported.has(node.expression.text))
        at(node, `${node.expression.text}.prototype`)
    }
    if (
      ts.isElementAccessExpression(node) &&
      ts.isStringLiteralLike(node.argumentExpression) &&
      node.argumentExpression.text.startsWith('_')
    )
      at(node, `['${node.argumentExpression.text}']`)
    if (
      ts.isBinaryExpression(node) &&
      node.operatorToken.kind === ts.SyntaxKind.EqualsToken &&
      ts.isPropertyAccessExpression(node.left) &&
      RUN_METHODS.has(node.left.name.text)
    )
      at(node, `.${node.left.name.text} replaced`)
    if (ts.isCallExpression(node) && node.expression.getText(file) === 'Object.assign')
      for (const arg of node.arguments.slice(1))
        if (ts.isObjectLiteralExpression(arg))
          for (const property of arg.properties)
            if (property.name && ts.isIdentifier(property.name) && RUN_METHODS.has(property.name.text))
              at(property, `.${property.name.text} replaced`)
    if (ts.isAsExpression(node) && ts.isTypeLiteralNode(node.type))
      for (const member of node.type.members) {
        const name = member.name && ts.isIdentifier(member.name) ? member.name.text : undefined
        if (name && (name.startsWith('_') || hidden.has(name))) at(member, `a cast to { ${name} }`)
      }
    ts.forEachChild(node, visit)
  }
  visit(file)
  return found
}

test('no code outside src/evm/patches/ reaches into @ethereumjs internals', () => {
  const hidden = hiddenMembers()
  expect(hidden.has('_opcodeMap') && hidden.has('checkpointed')).toBe(true) // the scan reads the declarations
  const found = sourceFiles(src).flatMap((path) => reaches(path, hidden))
  expect(found).toEqual([])
})
