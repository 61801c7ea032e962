/**
 * Frames' stacks in the WebAssembly kernel's memory (kernel.ts ARENA), so compiled blocks (compile.ts) work
 * on the stack's words where they are. The arena holds a fixed number of stacks and never grows (growing a
 * memory detaches the views of it); a frame made when all are taken gets a stack of its own, which the loop
 * runs without compiled blocks (loop.ts).
 */
import { ARENA, limbs } from './kernel.js'
import { STACK_LIMIT } from './shapes.js'

const free: number[] = []
for (let i = ARENA.stacks - 1; i >= 0; i--) free.push(ARENA.from + i * ARENA.bytes)
/**
 * A frame a call never gave back (a Fallback thrown from a child frame's opcode leaves it behind) returns its
 * stack when collected: else each would hold one of the arena's stacks for good, and once all were held no
 * frame would run compiled blocks.
 */
const owners = new FinalizationRegistry<number>((base) => free.push(base))

/** A stack for a new frame `owner`, and its byte address in the kernel's memory (-1 when outside it). */
export function takeStack(owner: object): { stack: Uint32Array; base: number } {
  const base = free.pop()
  if (base === undefined) return { stack: new Uint32Array(STACK_LIMIT * 8), base: -1 }
  owners.register(owner, base, owner)
  return { stack: limbs.subarray(base >> 2, (base >> 2) + STACK_LIMIT * 8), base }
}

/** Gives the arena's stack at `base` back (its frame let go); a stack outside it is the collector's. */
export function giveBackStack(owner: object, base: number): void {
  if (base < 0) return
  owners.unregister(owner)
  free.push(base)
}
