/** Runs one of the project's TypeScript entry points as `npm run <script>` does (node + tsx), whatever its exit code. */
import { execFile } from 'node:child_process'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { tracked } from './children.js'

const run = promisify(execFile)
export const REPO_ROOT = join(import.meta.dirname, '..', '..')

/** `script` relative to the repository root; stdout and stderr come back together, in that order. */
export function runScript(script: string, args: string[]): Promise<{ code: number; output: string }> {
  return runNode(['--import', 'tsx', join(REPO_ROOT, script)], args)
}

/** node with `entry` (its flags and file), then `args`, in the repository root; as runScript answers. */
export function runNode(entry: string[], args: string[]): Promise<{ code: number; output: string }> {
  const running = run(process.execPath, [...entry, ...args], {
    cwd: REPO_ROOT,
    maxBuffer: 64 * 1024 * 1024,
  })
  tracked(running.child)
  return running.then(
    ({ stdout, stderr }) => ({ code: 0, output: stdout + stderr }),
    (err: { code: number; stdout: string; stderr: string }) => ({ code: err.code, output: err.stdout + err.stderr }),
  )
}
