/**
 * Instructions a server process executes, counted by valgrind's callgrind window by window: a count the machine's
 * load does not move (CPU time on these shared cores moved ±30 % between rounds). The process runs under
 * valgrind with instrumentation off (its start-up and warm-up at a few times native speed, not fifty); a window
 * switches it on, zeroes the counters, runs the caller's requests and dumps them, one file per thread.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { sleep } from './lib.js'

/** The command a server is started under (its out files in `dir`). JIT code needs --smc-check to be seen rewritten. */
export function callgrindPrefix(dir: string): string[] {
  return [
    'valgrind',
    '--tool=callgrind',
    '--smc-check=all-non-file',
    '--instr-atstart=no',
    '--separate-threads=yes',
    `--callgrind-out-file=${dir}/cg.%p`,
  ]
}

/** Instructions of one window: the main thread's (the request path), and every thread's (V8's compilers and GC). */
export interface Count {
  main: number
  all: number
}

/** The windows of one process under callgrindPrefix(dir). */
export class Callgrind {
  private dumps = 0
  constructor(
    private readonly pid: number,
    private readonly dir: string,
  ) {}

  private control(...args: string[]) {
    execFileSync('callgrind_control', [...args, String(this.pid)], { stdio: 'ignore' })
  }

  /** Counts what the process executes while `run` runs; the dump carries `label` (callgrind_annotate shows it) in words and digits. */
  async window(label: string, run: () => Promise<void>): Promise<Count> {
    this.control('--instr=on')
    this.control('--zero')
    await run()
    // callgrind_control passes the label on as words of a command: `--no-mining` in it was taken for an option
    this.control(`--dump=${label.replace(/[^A-Za-z0-9]+/g, '_')}`)
    this.control('--instr=off')
    const part = `cg.${this.pid}.${++this.dumps}-`
    const main = `${this.dir}/${part}01`
    for (let i = 0; !existsSync(main); i++) {
      if (i > 100) throw new Error(`callgrind wrote no ${main}`)
      await sleep(100)
    }
    await sleep(200) // the other threads' files are written after the main thread's
    const summary = (file: string) => Number(/^summary: (\d+)$/m.exec(readFileSync(`${this.dir}/${file}`, 'utf8'))?.[1])
    const files = readdirSync(this.dir).filter((f) => f.startsWith(part))
    return { main: summary(`${part}01`), all: files.reduce((sum, f) => sum + summary(f), 0) }
  }
}
