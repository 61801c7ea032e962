/**
 * generated/types.ts: one exported wire type per component schema, named from its component key (titles
 * collide in the Ethereum specs; keys do not), documented with the schema's title and description.
 */
import { StructureKind, type TypeAliasDeclarationStructure } from 'ts-morph'
import type { LoadedDocument } from './model.js'
import { schemaToType } from './schema-to-type.js'
import { docText, headerLine, printSourceFile, type GeneratedFile } from './ts-project.js'
import type { Project } from 'ts-morph'

export function emitTypes(project: Project, loaded: LoadedDocument, source: string): GeneratedFile {
  const { schemas } = loaded.document.components
  const statements = loaded.schemas.map(([name, schema]): TypeAliasDeclarationStructure => {
    const doc = docText(schema.title as string, schema.description as string)
    return {
      kind: StructureKind.TypeAlias,
      name,
      isExported: true,
      type: schemaToType(schema, schemas),
      docs: doc === '' ? [] : [doc],
    }
  })
  return printSourceFile(project, 'types.ts', headerLine('emit-types.ts', source), statements)
}
