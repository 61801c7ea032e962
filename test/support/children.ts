/**
 * Every process the tests start, until it exits. A test that times out never reaches its own `finally` or
 * close(), and its file's afterAll may not stop everything either; what is still running after a file is
 * SIGKILLed then (the set-up files' afterAll, after the file's own hooks), and whatever is left when the
 * worker exits, at its exit. A leftover would otherwise hold a port and a core through the rest of the suite.
 */
import type { ChildProcess } from 'node:child_process'

/** The running children, each with whether it leads a process group of its own (spawned `detached`). */
const running = new Map<ChildProcess, boolean>()

/** Registers `child` until it exits; returns it. `group`: it was spawned detached, and its group goes with it. */
export function tracked<T extends ChildProcess>(child: T, { group = false } = {}): T {
  if (child.exitCode !== null || child.signalCode !== null) return child
  running.set(child, group)
  child.once('exit', () => running.delete(child))
  return child
}

/** SIGKILLs every tracked process still running (a SIGSTOPped one too), with its group if it has one. */
export function killTrackedChildren(): void {
  for (const [child, group] of running) {
    if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) continue
    try {
      if (group) process.kill(-child.pid, 'SIGKILL')
      else child.kill('SIGKILL')
    } catch {
      // gone meanwhile
    }
  }
  running.clear()
}

process.once('exit', killTrackedChildren)
