/**
 * What the call path's patches need of @ethereumjs/evm that the package does not export: its Interpreter
 * class (sync-steps.ts, lean-frames.ts, jump-analysis.ts), its opcode handlers (word-opcodes.ts) and its gas
 * helpers (sync-gas.ts), from the package's own ESM build (the files its exported EVM runs) and typed by the
 * declaration files beside them. Loaded by installEvmPatches: a file that moved or an export that is gone is
 * an EvmPatchError naming it, never a patch that quietly does nothing.
 */
import { pathToFileURL } from 'node:url'
import { EvmPatchError } from './patch-error.js'
import { packageDir } from './version.js'

type InterpreterModule = typeof import('../../../node_modules/@ethereumjs/evm/dist/esm/interpreter.js')
type FunctionsModule = typeof import('../../../node_modules/@ethereumjs/evm/dist/esm/opcodes/functions.js')
type GasModule = typeof import('../../../node_modules/@ethereumjs/evm/dist/esm/opcodes/gas.js')
type UtilModule = typeof import('../../../node_modules/@ethereumjs/evm/dist/esm/opcodes/util.js')
type Eip2929Module = typeof import('../../../node_modules/@ethereumjs/evm/dist/esm/opcodes/EIP2929.js')

export type InterpreterClass = InterpreterModule['Interpreter']
export type Interpreter = InstanceType<InterpreterClass>
export type OpcodeEntry = Parameters<Interpreter['runStep']>[0] & {}
export type RunState = Parameters<OpcodeEntry['opHandler']>[0]

export interface Internals {
  Interpreter: InterpreterClass
  /** The shipped opcode handlers by opcode (an EVM's table holds these unless an opcode is custom). */
  handlers: FunctionsModule['handlers']
  /** The shipped dynamic gas handlers by opcode (likewise). */
  dynamicGasHandlers: GasModule['dynamicGasHandlers']
  /** Memory expansion's gas, charging the run state's high-water mark as the handlers do. */
  subMemUsage: UtilModule['subMemUsage']
  divCeil: UtilModule['divCeil']
  /** EIP-2929's charge for a storage slot, warming it in the journal. */
  accessStorageEIP2929: Eip2929Module['accessStorageEIP2929']
}

/** An export of one of @ethereumjs/evm's ESM files; an EvmPatchError naming it when it is not there. */
export async function exportOf<M, K extends keyof M & string>(file: string, name: K): Promise<M[K]> {
  const where = `@ethereumjs/evm/dist/esm/${file}`
  let module: Partial<M>
  try {
    module = (await import(pathToFileURL(`${packageDir('evm')}/dist/esm/${file}`).href)) as Partial<M>
  } catch (err) {
    throw new EvmPatchError(`${where} ${name}`, `the file did not load (${(err as Error).message})`)
  }
  const value = module[name]
  if (value === undefined) throw new EvmPatchError(`${where} ${name}`, `the file has no export ${name}`)
  return value as M[K]
}

export async function loadInternals(): Promise<Internals> {
  return {
    Interpreter: await exportOf<InterpreterModule, 'Interpreter'>('interpreter.js', 'Interpreter'),
    handlers: await exportOf<FunctionsModule, 'handlers'>('opcodes/functions.js', 'handlers'),
    dynamicGasHandlers: await exportOf<GasModule, 'dynamicGasHandlers'>('opcodes/gas.js', 'dynamicGasHandlers'),
    subMemUsage: await exportOf<UtilModule, 'subMemUsage'>('opcodes/util.js', 'subMemUsage'),
    divCeil: await exportOf<UtilModule, 'divCeil'>('opcodes/util.js', 'divCeil'),
    accessStorageEIP2929: await exportOf<Eip2929Module, 'accessStorageEIP2929'>(
      'opcodes/EIP2929.js',
      'accessStorageEIP2929',
    ),
  }
}
