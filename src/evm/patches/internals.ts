/**
 * What the call path's patches need of @ethereumjs/evm that the package does not export: its Interpreter
 * class (jump-analysis.ts, sync-steps.ts, lean-frames.ts), its opcode handlers (word-opcodes.ts) and its gas
 * helpers (sync-gas.ts), reached through the package's own files. Undefined if a release moves them; the
 * patches then do nothing and calls run as shipped.
 */
import { createRequire } from 'node:module'
import { pathToFileURL } from 'node:url'

const indexPath = createRequire(import.meta.url).resolve('@ethereumjs/evm')
const esm = (file: string) => pathToFileURL(indexPath.replace(/dist[\\/]cjs[\\/]index\.js$/, `dist/esm/${file}`)).href
const optional = async <T>(file: string): Promise<Partial<T>> => {
  try {
    return (await import(esm(file))) as Partial<T>
  } catch {
    return {}
  }
}

export const interpreterPrototype = (
  await optional<{ Interpreter: { prototype: Record<string, unknown> } }>('interpreter.js')
).Interpreter?.prototype

type RunState = unknown
export interface GasInternals {
  /** The shipped dynamic gas handlers by opcode (an EVM's table holds these unless an opcode is custom). */
  dynamicGasHandlers: Map<number, unknown>
  /** Memory expansion's gas, charging the run state's high-water mark as the handlers do. */
  subMemUsage(runState: RunState, offset: bigint, length: bigint, common: unknown): bigint
  divCeil(a: bigint, b: bigint): bigint
  /** EIP-2929's charge for a storage slot, warming it in the journal. */
  accessStorageEIP2929(runState: RunState, key: Uint8Array, isSstore: boolean, common: unknown): bigint
}

/** The shipped opcode handlers by opcode (an EVM's table holds these unless an opcode is custom). */
export const shippedHandlers = (await optional<{ handlers: Map<number, unknown> }>('opcodes/functions.js')).handlers

const gas = await optional<Pick<GasInternals, 'dynamicGasHandlers'>>('opcodes/gas.js')
const util = await optional<Pick<GasInternals, 'subMemUsage' | 'divCeil'>>('opcodes/util.js')
const eip2929 = await optional<Pick<GasInternals, 'accessStorageEIP2929'>>('opcodes/EIP2929.js')
export const gasInternals: GasInternals | undefined =
  gas.dynamicGasHandlers && util.subMemUsage && util.divCeil && eip2929.accessStorageEIP2929
    ? {
        dynamicGasHandlers: gas.dynamicGasHandlers,
        subMemUsage: util.subMemUsage,
        divCeil: util.divCeil,
        accessStorageEIP2929: eip2929.accessStorageEIP2929,
      }
    : undefined
