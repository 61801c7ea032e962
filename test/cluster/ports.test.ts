/**
 * A child process told a port from freePort() may find it taken by the time it binds (another test file's
 * server, another cluster): it is started again on a new port, whether it exits on EADDRINUSE (nginx,
 * redis-server) or keeps running while another process answers there.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { createServer, type Server } from 'node:net'
import { afterEach, describe, expect, test } from 'vitest'
import { spawnOnFreePort } from '../../scripts/cluster/ports.js'
import { waitFor } from '../../scripts/cluster/processes.js'
import { tracked } from '../support/children.js'

/** A node child listening on `port`; `lenient`: it stays up (silent) when the bind fails. */
function listener(port: number, lenient: boolean): ChildProcess {
  const onError = lenient ? '() => {}' : '(err) => { console.error(err.message); process.exit(1) }'
  const script = `require('net').createServer().on('error', ${onError}).listen(${port}, '127.0.0.1');setInterval(() => {}, 1e6)`
  return tracked(spawn(process.execPath, ['-e', script], { stdio: 'ignore' }))
}

/** Resolves once something accepts connections on `port`; rejects when `child` exits first. */
function accepting(child: ChildProcess, port: number): Promise<void> {
  const accepts = () =>
    fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(1000) }).then(
      () => true,
      (err: Error) => !/ECONNREFUSED/.test(String((err.cause as Error | undefined)?.message)),
    )
  return waitFor('the listener', child, accepts, undefined, 20)
}

describe('a child started on a free port', () => {
  const squatters: Server[] = []
  const children: ChildProcess[] = []
  afterEach(async () => {
    for (const child of children.splice(0)) child.kill('SIGKILL')
    await Promise.all(squatters.splice(0).map((s) => new Promise((r) => s.close(r))))
  })

  /** Spawns `listener`s, the first one after another process has taken its port. */
  const racing = (lenient: boolean) => {
    const ports: number[] = []
    const spawnAt = (port: number) => {
      if (ports.length === 0) {
        const squatter = createServer((socket) => socket.destroy()).listen(port, '127.0.0.1')
        squatters.push(squatter)
      }
      ports.push(port)
      const child = listener(port, lenient)
      children.push(child)
      return child
    }
    return { ports, spawnAt }
  }

  test('that exits because the port was taken meanwhile is started again on another port', async () => {
    const { ports, spawnAt } = racing(false)
    const { child, port } = await spawnOnFreePort('the listener', spawnAt, accepting)
    expect(ports).toHaveLength(2)
    expect(port).toBe(ports[1])
    expect(port).not.toBe(ports[0])
    expect(child.exitCode).toBeNull()
    // gone: it exited on EADDRINUSE, or was killed when the squatter answered in its place before it had exited
    const first = children[0]!
    expect(first.exitCode === 1 || first.signalCode === 'SIGKILL', `${first.exitCode} ${first.signalCode}`).toBe(true)
  })

  test('that stays up while another process answers on its port is replaced by one on another port', async () => {
    const { ports, spawnAt } = racing(true)
    const { port } = await spawnOnFreePort('the listener', spawnAt, accepting)
    expect(ports).toHaveLength(2)
    expect(port).toBe(ports[1])
    // the first, which never held its port, is gone
    expect(children[0]!.signalCode).toBe('SIGKILL')
  })

  test('that fails for another reason every time gives up, naming what happened', async () => {
    const spawnAt = () => tracked(spawn(process.execPath, ['-e', 'process.exit(3)'], { stdio: 'ignore' }))
    await expect(spawnOnFreePort('the broken child', spawnAt, accepting)).rejects.toThrow(
      /the broken child never held the port it was given \(5 tries; last: it exited on port \d+: the listener exited \(3\) before it was up\)/,
    )
  })
})
