import { readdir, readFile, readlink } from 'node:fs/promises'

/** A loopback port nobody listens on right now, for a child process (anvil, redis-server) that needs one named. */
export { freePort } from '../../scripts/cluster/processes.js'

/**
 * Whether process `pid` holds the socket listening on `port`. Between freePort() and the child's own bind
 * another test's server may take the port (bind(0) hands out any free one), and then whatever answers there is
 * not the child. Linux's /proc tells: the listening socket's inode (/proc/net/tcp) among the child's descriptors.
 * Where /proc is missing the answer is yes, as before this check.
 */
export async function listensOn(pid: number, port: number): Promise<boolean> {
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
