/**
 * The cluster topology on one machine: redis-server, one embedded leader (none when an upstream is given),
 * N followers of it sharing Redis, and nginx in front of the followers. A supervisor polls every follower's
 * GET /ready and renders the unready ones `down` in nginx (open-source nginx has only passive checks), and
 * restarts a follower that dies on the same port, so it rejoins. Every port it picks is taken again when the
 * process it was for could not bind it (scripts/cluster/ports.ts): another process on the machine got it first.
 */
import type { ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Nginx } from './nginx.js'
import { freePort, spawnOnFreePort } from './ports.js'
import { isReady, listening, readyStatus, startMember, startRedis, stopProcess, waitFor } from './processes.js'

export interface ClusterOptions {
  followers: number
  /** nginx's port on 127.0.0.1; a free one when not given (tests, the bench). */
  port?: number
  /** Follow this node instead of starting a leader. */
  upstream?: string
  upstreamFeed?: string
  /** Tests: follower i's own upstream (a frozen upstream of one follower only). */
  upstreamOf?: (i: number) => { upstream: string; upstreamFeed?: string }
  /** More flags for every follower (the bench: `--rate-limit 0`). */
  followerFlags?: string[]
  /** Progress lines (member started, restarted, drained). */
  log?: (line: string) => void
}

interface Member {
  name: string
  /** http://127.0.0.1:<port> */
  origin: string
  readonly pid: number
  ready: boolean
}

export interface Cluster {
  /** The entry (nginx): http://127.0.0.1:<port> */
  origin: string
  redisUrl: string
  leader?: Member
  followers: Member[]
  /** Where the logs and nginx's prefix are (removed by stop()). */
  dir: string
  nginxPid: number
  stop(): Promise<void>
}

const SUPERVISE_INTERVAL_MS = 250
const RESTART_DELAY_MS = 500
const DRAIN_AFTER_POLLS = 3

const originOf = (port: number) => `http://127.0.0.1:${port}`

class Supervised implements Member {
  ready = false
  /** Its /ready answers 503: nginx must not send it traffic. */
  drained = false
  lastStatus = 0
  /** Polls in a row that saw lastStatus. */
  streak = 0
  private stopping = false

  private constructor(
    readonly name: string,
    public port: number,
    public child: ChildProcess,
    private readonly startAt: (port: number) => ChildProcess,
    private readonly log: (line: string) => void,
    private readonly restart: boolean,
  ) {
    this.watch()
  }

  /** Started on a free port and up (its /ready answers 200), then supervised. */
  static async launch(
    name: string,
    startAt: (port: number) => ChildProcess,
    log: (line: string) => void,
    restart: boolean,
  ): Promise<Supervised> {
    const up = (child: ChildProcess, port: number) => waitFor(name, child, () => isReady(originOf(port)))
    const { child, port } = await spawnOnFreePort(name, startAt, up)
    return new Supervised(name, port, child, startAt, log, restart)
  }

  get origin(): string {
    return originOf(this.port)
  }

  get pid(): number {
    return this.child.pid ?? -1
  }

  private watch(): void {
    this.child.once('exit', (code, signal) => {
      if (this.stopping) return
      // up since its start, it held its port, and takes it again so it rejoins where it was; a restart that
      // died before it was up may have lost its port to another process: a new one, which nginx is given on
      // the supervisor's next poll (the upstream list names it)
      const held = this.ready
      this.ready = false
      this.log(`${this.name} exited (${signal ?? code})${this.restart ? ': restarting' : ''}`)
      if (this.restart) setTimeout(() => this.respawn(held), RESTART_DELAY_MS)
    })
  }

  private async respawn(onSamePort: boolean): Promise<void> {
    const port = onSamePort ? this.port : await freePort()
    if (this.stopping) return
    this.port = port
    this.child = this.startAt(port)
    this.watch()
  }

  stop(): Promise<void> {
    this.stopping = true
    return stopProcess(this.child)
  }
}

export async function startCluster(options: ClusterOptions): Promise<Cluster> {
  const log = options.log ?? (() => {})
  const dir = mkdtempSync(join(tmpdir(), 'preconf-cluster-'))
  const started: { stop(): Promise<void> }[] = []
  const stopAll = async () => {
    for (const part of started.reverse()) await part.stop().catch(() => {})
    rmSync(dir, { recursive: true, force: true })
  }
  try {
    const { child: redis, port: redisPort } = await spawnOnFreePort(
      'redis-server',
      (port) => startRedis(dir, port),
      (child, port) => waitFor('redis-server', child, () => listening(port), 15_000),
    )
    started.push({ stop: () => stopProcess(redis) })
    const redisUrl = `redis://127.0.0.1:${redisPort}`

    let leader: Supervised | undefined
    let upstream = options.upstream
    let upstreamFeed = options.upstreamFeed
    if (!upstream) {
      // internal: only followers call it, so no rate limit; its pool's admissions reach the shared pending filters.
      // A public cluster's source of truth: no unsigned state changes (dev-node methods off)
      const flags = ['--rate-limit', '0', '--redis-url', redisUrl, '--no-dev-methods']
      leader = await Supervised.launch('leader', (port) => startMember(dir, 'leader', port, flags), log, false)
      started.push(leader)
      upstream = `${leader.origin}/`
      upstreamFeed = `ws://127.0.0.1:${leader.port}/ws/flashblocks`
    }

    const launches: Promise<Supervised>[] = []
    for (let i = 0; i < options.followers; i++) {
      const source = options.upstreamOf?.(i) ?? { upstream: upstream!, upstreamFeed }
      const flags = ['--upstream', source.upstream, '--redis-url', redisUrl, '--trusted-proxies', '127.0.0.1']
      if (source.upstreamFeed) flags.push('--upstream-feed', source.upstreamFeed)
      flags.push(...(options.followerFlags ?? []))
      const name = `follower-${i + 1}`
      launches.push(Supervised.launch(name, (port) => startMember(dir, name, port, flags), log, true))
    }
    // all at once, and every one that started is stopped with the cluster even when another failed
    const launched = await Promise.allSettled(launches)
    for (const l of launched) if (l.status === 'fulfilled') started.push(l.value)
    const failed = launched.find((l) => l.status === 'rejected')
    if (failed) throw failed.reason
    const followers = launched.map((l) => (l as PromiseFulfilledResult<Supervised>).value)
    for (const f of followers) f.ready = true

    const upstreams = () => {
      // a drained member is left out only while another serves (ready and not drained): stale answers beat
      // none. "Another is ready" was not enough: a drained member whose /ready is 200 again (not yet for
      // DRAIN_AFTER_POLLS polls) counted as that other, and beside a member just killed it rendered the one
      // live member down, so nginx answered 502 "no live upstreams" (seen beside CPU hogs)
      const serving = followers.some((f) => f.ready && !f.drained)
      return followers.map((f) => ({ address: `127.0.0.1:${f.port}`, down: serving && f.drained }))
    }
    let nginx!: Nginx
    const startNginx = (port: number) => {
      nginx = Nginx.start(join(dir, 'nginx'), `127.0.0.1:${port}`, upstreams())
      return nginx.child
    }
    const nginxUp = (child: ChildProcess, port: number) =>
      waitFor('nginx', child, () => isReady(originOf(port)), 15_000)
    let entryPort = options.port
    // a port the operator named is theirs: when nginx cannot bind it, its own error says so
    if (entryPort === undefined) entryPort = (await spawnOnFreePort('nginx', startNginx, nginxUp)).port
    else startNginx(entryPort)
    started.push({ stop: () => stopProcess(nginx.child) })
    await nginxUp(nginx.child, entryPort)
    const origin = originOf(entryPort)

    let rendered = JSON.stringify(upstreams())
    // a drained member is back once its /ready is 200 again
    const timer = setInterval(async () => {
      await Promise.all(
        followers.map(async (f) => {
          const status = await readyStatus(f.origin)
          const ready = status === 200
          if (ready !== f.ready) log(`${f.name} ${ready ? 'ready' : `not ready (${status || 'no answer'})`}`)
          f.ready = ready
          // only a member that answers 503 is rendered down, and only a 200 brings it back: a dead or slow one
          // is left to nginx's passive checks. A reload closes clients' idle keep-alive connections, so the
          // state must hold for DRAIN_AFTER_POLLS polls in a row first: a loaded machine's blip reloads nothing.
          f.streak = status === f.lastStatus ? f.streak + 1 : 1
          f.lastStatus = status
          if (f.streak >= DRAIN_AFTER_POLLS && status === 503) f.drained = true
          else if (f.streak >= DRAIN_AFTER_POLLS && status === 200) f.drained = false
        }),
      )
      const next = JSON.stringify(upstreams())
      if (next !== rendered) {
        rendered = next
        nginx.reload(upstreams())
      }
    }, SUPERVISE_INTERVAL_MS)
    started.push({ stop: async () => clearInterval(timer) })

    return { origin, redisUrl, leader, followers, dir, nginxPid: nginx.child.pid!, stop: stopAll }
  } catch (err) {
    await stopAll()
    throw err
  }
}
