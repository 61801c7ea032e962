/**
 * The dispatch table: per opcode of Cancun and Prague its handler (opcodes without one are invalid). The
 * loop (loop.ts) runs the commonest opcodes itself and every other through this table, after it has charged
 * their static gas and checked the stack (shapes.ts).
 */
import { packed } from './analysis.js'
import type { Frame } from './frame.js'
import { Fallback } from './host.js'
import { arithmetic } from './ops-arith.js'
import { callOps } from './ops-call.js'
import { environment } from './ops-env.js'
import { stateOps } from './ops-state.js'

export type Handler = (f: Frame) => void | Promise<void>

/** What the interpreter leaves to the reference path, by opcode. */
const FALLBACKS: [number, string][] = [
  [0xf0, 'CREATE'],
  [0xf5, 'CREATE2'],
  [0xff, 'SELFDESTRUCT'],
]

const invalid: Handler = (f) => f.fail('invalid opcode')

export function buildTable(run: (f: Frame) => void | Promise<void>): Handler[] {
  const handlers = packed<Handler>(256, invalid)
  for (const [op, handler] of [...arithmetic, ...environment, ...stateOps, ...callOps(run)]) handlers[op] = handler
  for (const [op, name] of FALLBACKS)
    handlers[op] = () => {
      throw new Fallback(name)
    }
  return handlers
}
