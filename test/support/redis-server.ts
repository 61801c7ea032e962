/**
 * For tests: a throw-away redis-server on a free loopback port (no persistence), which a test can kill and
 * start again on the same port to cause a real outage and a real recovery.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { spawnOnFreePort } from './free-port.js'
import { tracked } from './children.js'

export class TestRedis {
  private child: ChildProcess | undefined

  /** `args`: more redis-server flags after the defaults (a later flag wins), e.g. a manifest's. */
  private constructor(
    readonly port: number,
    private readonly args: readonly string[],
  ) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`
  }

  /** On a free port; on another when a different process takes it before redis-server binds it. */
  static async start(args: readonly string[] = []): Promise<TestRedis> {
    const spawnAt = (port: number) => spawnRedis(port, args)
    const { child, port } = await spawnOnFreePort('redis-server', spawnAt, untilReady)
    const redis = new TestRedis(port, args)
    redis.child = child
    return redis
  }

  /** Starts redis-server on this port again (after kill()) and resolves once it accepts connections. */
  async restart(): Promise<void> {
    if (this.child) throw new Error('redis-server is already running')
    const child = spawnRedis(this.port, this.args)
    this.child = child
    await untilReady(child)
  }

  /** Kills redis-server at once (SIGKILL: an outage, not a graceful shutdown) and waits until it is gone. */
  async kill(): Promise<void> {
    const child = this.child
    this.child = undefined
    if (!child || child.exitCode !== null || child.signalCode !== null) return
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
    child.kill('SIGKILL')
    await exited
  }

  /** Freezes redis-server (SIGSTOP): connected but silent, the hung-server case. */
  pause(): void {
    this.child?.kill('SIGSTOP')
  }

  resume(): void {
    this.child?.kill('SIGCONT')
  }
}

function spawnRedis(port: number, args: readonly string[]): ChildProcess {
  const defaults = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no']
  return tracked(
    spawn('redis-server', [...defaults, '--loglevel', 'notice', ...args], { stdio: ['ignore', 'pipe', 'pipe'] }),
  )
}

/** Resolves once `child` logs that it accepts connections; rejects when it exits first. */
function untilReady(child: ChildProcess): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    let output = ''
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      if (output.includes('Ready to accept connections')) {
        child.stdout!.off('data', onData)
        child.stdout!.resume()
        resolve()
      }
    }
    child.stdout!.on('data', onData)
    child.stderr!.resume()
    child.once('exit', (code) => reject(new Error(`redis-server exited (${code}) before it was ready:\n${output}`)))
    child.once('error', reject)
  })
}
