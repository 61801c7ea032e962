/**
 * Component keys become TypeScript type names unchanged (generated/types.ts, imported by methods.ts), so a
 * key must be a name TypeScript accepts there and must not hide a name the generated code itself uses.
 */

const identifier = /^[A-Za-z_$][A-Za-z0-9_$]*$/

/** Reserved words, and the predefined types a type alias cannot be named after. */
const reserved = new Set(
  [
    'break case catch class const continue debugger default delete do else enum export extends false finally for',
    'function if import in instanceof new null return super switch this throw true try typeof var void while with',
    'implements interface let package private protected public static yield await',
    'any unknown never string number bigint boolean symbol object undefined',
  ].flatMap((line) => line.split(' ')),
)

/** Names in scope in the generated types.ts and methods.ts besides the component types. */
const usedByGeneratedCode = new Set([
  'Array',
  'Exclude',
  'Object',
  'Readonly',
  'Record',
  'AliasName',
  'Endpoint',
  'HandlersOf',
  'MethodHandlers',
  'MethodLookup',
  'MethodName',
  'MethodSpec',
  'Methods',
  'Spec',
  'defineMethod',
  'lookupMethod',
  'methodLookup',
  'methodTable',
  'validators',
])

/** Why a component key cannot be a type name, or undefined when it can. */
export function typeNameProblem(name: string): string | undefined {
  if (!identifier.test(name))
    return 'the name becomes a TypeScript type; use letters, digits, _ and $, not starting with a digit'
  if (reserved.has(name)) return `the name becomes a TypeScript type, and ${name} is reserved in TypeScript`
  if (usedByGeneratedCode.has(name))
    return `the name becomes a TypeScript type, and ${name} is used by the generated code`
  return undefined
}
