import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { ts } from 'ts-morph'
import { expect, test } from 'vitest'

/**
 * The import graph of src/ has no circles, type-only imports included: a module that imports its importer
 * has no floor of its own, so neither can be read, tested or moved alone (issue 29 found five). Each file's
 * static `import`/`export … from` of another file in src/, read with the TypeScript parser.
 */
const src = dirname(fileURLToPath(import.meta.url))

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(path)
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') && !entry.name.endsWith('.test.ts') ? [path] : []
  })
}

function importsOf(path: string): string[] {
  const file = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest)
  return file.statements.flatMap((statement) => {
    if (!ts.isImportDeclaration(statement) && !ts.isExportDeclaration(statement)) return []
    const specifier = statement.moduleSpecifier
    if (!specifier || !ts.isStringLiteral(specifier) || !specifier.text.startsWith('.')) return []
    const target = resolve(dirname(path), specifier.text.replace(/\.js$/, '.ts'))
    return target.startsWith(src) ? [target] : []
  })
}

/** One circle through each strongly connected set of files (Tarjan's algorithm), as a path back to its start. */
function circles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const found: string[][] = []
  const visit = (file: string): void => {
    index.set(file, index.size)
    low.set(file, index.get(file)!)
    stack.push(file)
    for (const next of graph.get(file) ?? []) {
      if (!index.has(next)) {
        visit(next)
        low.set(file, Math.min(low.get(file)!, low.get(next)!))
      } else if (stack.includes(next)) low.set(file, Math.min(low.get(file)!, index.get(next)!))
    }
    if (low.get(file) !== index.get(file)) return
    const members = new Set(stack.splice(stack.indexOf(file)))
    if (members.size > 1 || graph.get(file)?.includes(file)) found.push(pathWithin(graph, members, file))
  }
  for (const file of graph.keys()) if (!index.has(file)) visit(file)
  return found
}

/** A path from `start` back to it through `members` only (breadth-first, so the shortest). */
function pathWithin(graph: Map<string, string[]>, members: Set<string>, start: string): string[] {
  const cameFrom = new Map<string, string>()
  const queue = [start]
  while (queue.length > 0) {
    const file = queue.shift()!
    for (const next of graph.get(file) ?? []) {
      if (!members.has(next)) continue
      if (next === start) {
        const path = [start]
        for (let at: string | undefined = file; at !== start && at !== undefined; at = cameFrom.get(at))
          path.splice(1, 0, at)
        return [...path, start]
      }
      if (!cameFrom.has(next)) {
        cameFrom.set(next, file)
        queue.push(next)
      }
    }
  }
  return [start]
}

test('no file in src/ imports, through any chain of imports, a file that imports it', () => {
  const graph = new Map(sourceFiles(src).map((file) => [file, importsOf(file)]))
  const found = circles(graph).map((circle) => circle.map((file) => relative(src, file)).join(' -> '))
  expect(found).toEqual([])
})

test('the check finds a circle, type-only imports included', () => {
  const graph = new Map([
    ['a.ts', ['b.ts']],
    ['b.ts', ['c.ts']],
    ['c.ts', ['a.ts', 'd.ts']],
    ['d.ts', []],
  ])
  expect(circles(graph)).toEqual([['a.ts', 'b.ts', 'c.ts', 'a.ts']])
  const typeOnly = join(src, 'domain/types.ts')
  expect(importsOf(typeOnly).map((file) => relative(src, file))).toContain('domain/deposit-transaction.ts')
})
