import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

const root = join(import.meta.dirname, '..', '..')

/**
 * A TypeScript project in `dir` that can type-check generated code: the generated files import ../src and npm
 * packages, so it links both, and it extends this repository's tsconfig. The generated conformance.test.ts is
 * left out: it would start this project's service, whose handlers implement our document, not the generated one.
 */
export function scratchProject(dir: string, include: readonly string[]): string {
  mkdirSync(dir, { recursive: true })
  symlinkSync(join(root, 'src'), join(dir, 'src'))
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'))
  writeFileSync(join(dir, 'package.json'), '{"type":"module"}\n')
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      extends: join(root, 'tsconfig.json'),
      include,
      exclude: ['generated/conformance.test.ts'],
    }),
  )
  return join(dir, 'tsconfig.json')
}
