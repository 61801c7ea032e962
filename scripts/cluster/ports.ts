/**
 * Loopback ports for child processes that must be told theirs (redis-server, nginx, anvil, a service): one
 * nobody listens on now, and a start that takes another when the child did not get it. freePort() binds port 0
 * and closes it, so until the child's own bind any other process on the machine (a parallel test file, another
 * cluster) may take the same port: the child then exits (nginx and redis-server: "Address already in use") or,
 * where it does not, something else answers in its place.
 */
import type { ChildProcess } from 'node:child_process'
import { readdir, readFile, readlink } from 'node:fs/promises'
import { createServer, type AddressInfo } from 'node:net'

/** A loopback port nobody listens on right now. */
export async function freePort(): Promise<number> {
  const probe = createServer()
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve))
  const { port } = probe.address() as AddressInfo
  await new Promise<void>((resolve) => probe.close(() => resolve()))
  return port
}

/** Starts before the child holds its port: each one a new port, so a race lost this many times in a row is no race. */
const PORT_TRIES = 5

const gone = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null

/**
 * Starts a child on a port from freePort() (`spawnAt`) and waits until it is up (`untilUp`, which rejects when
 * the child exits first); when the child exited before it was up, or is up while another process holds the
 * port, kills it and starts it again on a new port. A child that is slow to come up is not restarted: only
 * `untilUp`'s own failure ends that wait.
 */
export async function spawnOnFreePort(
  what: string,
  spawnAt: (port: number) => ChildProcess,
  untilUp: (child: ChildProcess, port: number) => Promise<void>,
): Promise<{ child: ChildProcess; port: number }> {
  let lastFailure = ''
  for (let attempt = 1; attempt <= PORT_TRIES; attempt++) {
    const port = await freePort()
    const child = spawnAt(port)
    const exited = new Promise<void>((resolve) => (gone(child) ? resolve() : child.once('exit', () => resolve())))
    try {
      await untilUp(child, port)
      if (await listensOn(child.pid!, port)) return { child, port }
      lastFailure = `another process took port ${port} first`
    } catch (err) {
      if (!gone(child)) {
        child.kill('SIGKILL')
        throw err
      }
      lastFailure = `it exited on port ${port}: ${(err as Error).message}`
    }
    child.kill('SIGKILL')
    await exited
  }
  throw new Error(`${what} never held the port it was given (${PORT_TRIES} tries; last: ${lastFailure})`)
}

/**
 * Whether process `pid` holds the socket listening on `port`: Linux's /proc tells, the listening socket's
 * inode (/proc/net/tcp) among the process's descriptors. Where /proc is missing the answer is yes.
 */
async function listensOn(pid: number, port: number): Promise<boolean> {
  let table: string
  try {
    table = await readFile('/proc/net/tcp', 'utf8')
  } catch {
    return true
  }
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0')
  const inodes = new Set<string>()
  for (const line of table.split('\n').slice(1)) {
    const f = line.trim().split(/\s+/)
    // local address is IP:PORT in hex; state 0A is LISTEN; the inode is the tenth field
    if (f[1]?.endsWith(`:${hexPort}`) && f[3] === '0A') inodes.add(`socket:[${f[9]}]`)
  }
  if (inodes.size === 0) return false
  let fds: string[]
  try {
    fds = await readdir(`/proc/${pid}/fd`)
  } catch {
    return false
  }
  for (const fd of fds) {
    const target = await readlink(`/proc/${pid}/fd/${fd}`).catch(() => '')
    if (inodes.has(target)) return true
  }
  return false
}
