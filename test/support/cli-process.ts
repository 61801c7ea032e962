/**
 * The CLI as a child process, with its output collected: compiled (test/support/cli-build.ts), or run the way
 * `npm start` does (node + tsx), which one test keeps so that way stays covered.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { once } from 'node:events'
import { join } from 'node:path'
import { compiledCli } from './cli-build.js'
import { REPO_ROOT } from './run-script.js'
import { tracked } from './children.js'

export interface CliProcess {
  child: ChildProcessWithoutNullStreams
  output: { stdout: string; stderr: string }
  /** The exit code (null when a signal ended it). */
  exited: Promise<number | null>
}

/** Starts the CLI; `children` collects it so an afterEach can SIGKILL what a failed test left running. */
export async function runCli(
  args: string[],
  children: ChildProcessWithoutNullStreams[],
  { via }: { via: 'compiled' | 'tsx' } = { via: 'compiled' },
): Promise<CliProcess> {
  const entry = via === 'tsx' ? ['--import', 'tsx', join(REPO_ROOT, 'src', 'cli.ts')] : [await compiledCli()]
  const child = tracked(spawn(process.execPath, [...entry, ...args], { cwd: REPO_ROOT }))
  children.push(child)
  const output = { stdout: '', stderr: '' }
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output.stdout += chunk))
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output.stderr += chunk))
  const exited = once(child, 'exit').then(([code]) => code as number | null)
  return { child, output, exited }
}

/** Resolves with the first match of `pattern` in the CLI's stdout; rejects if it exits first. */
export async function waitForOutput(
  output: { stdout: string },
  pattern: RegExp,
  exited: Promise<unknown>,
): Promise<RegExpMatchArray> {
  let done = false
  void exited.then(() => (done = true))
  for (;;) {
    const match = output.stdout.match(pattern)
    if (match) return match
    if (done) throw new Error(`the CLI exited before printing ${pattern}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

/** Kills whatever the tests left running. */
export function killLeftovers(children: ChildProcessWithoutNullStreams[]): void {
  for (const child of children.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
}
