/**
 * The floors a JSON-RPC server on Node stands on, each a process of its own answering every request with a
 * constant (whatever its method): a bare node:http server and a minimal fastify app, both JSON.parse the body and
 * JSON.stringify the reply. What our service costs beyond them is ours; what they cost is Node's.
 * Used by transport-floor.ts (eth_chainId), kit-reads.ts (the kit's read cases) and request-alloc.ts (bytes).
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { freePort, rpc, sleep, type Target } from './lib.js'

/**
 * The bare server's request listener: JSON.parse the body, JSON.stringify a constant reply. A GET or a preflight
 * (transport-floor.ts --after-gets) is answered an empty 200.
 */
export const BARE = `(req, res) => {
      if (req.method !== 'POST') return res.end()
      let body = ''
      req.setEncoding('utf8')
      req.on('data', (c) => (body += c))
      req.on('end', () => {
        const m = JSON.parse(body)
        const text = JSON.stringify({ jsonrpc: '2.0', id: m.id, result: '0xc4' })
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) })
        res.end(text)
      })
    }`

const FLOORS = {
  'node:http': `require('node:http').createServer(${BARE}).listen(Number(process.env.PORT), '127.0.0.1')`,
  fastify: `
    const app = require('fastify')({ logger: false })
    app.post('/', async (request) => ({ jsonrpc: '2.0', id: request.body.id, result: '0xc4' }))
    app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' })`,
}
/** A floor exits on SIGTERM (not killed by it), so --cpu-prof writes its profile. */
const EXIT_ON_TERM = `;process.on('SIGTERM', () => process.exit(0))`

/** A floor's program for `node -e`, listening on the port in the environment's PORT. */
export function floorScript(label: keyof typeof FLOORS): string {
  return FLOORS[label] + EXIT_ON_TERM
}

/**
 * A floor server in a process of its own (`nodeArgs`: e.g. a CPU profiler's; `wrap`: a command node runs under,
 * valgrind in callgrind.ts), ready for requests.
 */
export async function startFloor(
  label: keyof typeof FLOORS,
  nodeArgs: string[] = [],
  wrap: string[] = [],
): Promise<Target> {
  const port = await freePort()
  const [command = process.execPath, ...wrapArgs] = wrap
  const node = [...(wrap.length > 0 ? [...wrapArgs, process.execPath] : []), ...nodeArgs]
  const child: ChildProcess = spawn(command, [...node, '-e', floorScript(label)], {
    cwd: new URL('..', import.meta.url).pathname,
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  const url = `http://127.0.0.1:${port}/`
  for (let i = 0; ; i++) {
    try {
      await rpc(url, 'eth_chainId')
      break
    } catch (err) {
      if (i > 300) throw err // under valgrind (callgrind.ts) node starts in seconds
      await sleep(100)
    }
  }
  const stop = () =>
    new Promise<void>((resolve) => {
      child.once('exit', () => resolve())
      child.kill('SIGTERM')
    })
  return { label, url, pid: child.pid, stop }
}
