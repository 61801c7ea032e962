/**
 * The cluster topology on one machine: redis-server, one embedded leader (none when an upstream is given),
 * N followers of it sharing Redis, and nginx in front of the followers. A supervisor polls every follower's
 * GET /ready and renders the unready ones `down` in nginx (open-source nginx has only passive checks), and
 * restarts a follower that dies on the same port, so it rejoins.
 */
import type { ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Nginx } from './nginx.js'
import {
  freePort,
  isReady,
  listening,
  readyStatus,
  startMember,
  startRedis,
  stopProcess,
  waitFor,
} from './processes.js'

export interface ClusterOptions {
  followers: number
  /** nginx's port on 127.0.0.1. */
  port: number
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

class Supervised implements Member {
  child!: ChildProcess
  ready = false
  /** Its /ready answers 503: nginx must not send it traffic. */
  drained = false
  lastStatus = 0
  /** Polls in a row that saw lastStatus. */
  streak = 0
  private stopping = false

  constructor(
    readonly name: string,
    readonly port: number,
    private readonly start: () => ChildProcess,
    private readonly log: (line: string) => void,
    private readonly restart: boolean,
  ) {
    this.spawn()
  }

  get origin(): string {
    return `http://127.0.0.1:${this.port}`
  }

  get pid(): number {
    return this.child.pid ?? -1
  }

  private spawn(): void {
    const child = this.start()
    this.child = child
    child.once('exit', (code, signal) => {
      if (this.stopping) return
      this.ready = false
      this.log(`${this.name} exited (${signal ?? code})${this.restart ? ': restarting' : ''}`)
      if (this.restart) setTimeout(() => this.stopping || this.spawn(), RESTART_DELAY_MS)
    })
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
    const redisPort = await freePort()
    const redis = startRedis(dir, redisPort)
    started.push({ stop: () => stopProcess(redis) })
    await waitFor('redis-server', redis, () => listening(redisPort), 15_000)
    const redisUrl = `redis://127.0.0.1:${redisPort}`

    let leader: Supervised | undefined
    let upstream = options.upstream
    let upstreamFeed = options.upstreamFeed
    if (!upstream) {
      const port = await freePort()
      // internal: only followers call it, so no rate limit; its pool's admissions reach the shared pending filters.
      // A public cluster's source of truth: no unsigned state changes (dev-node methods off)
      const flags = ['--rate-limit', '0', '--redis-url', redisUrl, '--no-dev-methods']
      leader = new Supervised('leader', port, () => startMember(dir, 'leader', port, flags), log, false)
      started.push(leader)
      await waitFor('the leader', leader.child, () => isReady(leader!.origin))
      upstream = `${leader.origin}/`
      upstreamFeed = `ws://127.0.0.1:${port}/ws/flashblocks`
    }

    const followers: Supervised[] = []
    for (let i = 0; i < options.followers; i++) {
      const port = await freePort()
      const source = options.upstreamOf?.(i) ?? { upstream: upstream!, upstreamFeed }
      const flags = ['--upstream', source.upstream, '--redis-url', redisUrl, '--trusted-proxies', '127.0.0.1']
      if (source.upstreamFeed) flags.push('--upstream-feed', source.upstreamFeed)
      flags.push(...(options.followerFlags ?? []))
      const name = `follower-${i + 1}`
      const follower = new Supervised(name, port, () => startMember(dir, name, port, flags), log, true)
      started.push(follower)
      followers.push(follower)
    }
    for (const f of followers) {
      await waitFor(f.name, f.child, () => isReady(f.origin))
      f.ready = true
    }

    const upstreams = () => {
      // a drained member is left out only while another serves (ready and not drained): stale answers beat
      // none. "Another is ready" was not enough: a drained member whose /ready is 200 again (not yet for
      // DRAIN_AFTER_POLLS polls) counted as that other, and beside a member just killed it rendered the one
      // live member down, so nginx answered 502 "no live upstreams" (seen beside CPU hogs)
      const serving = followers.some((f) => f.ready && !f.drained)
      return followers.map((f) => ({ address: `127.0.0.1:${f.port}`, down: serving && f.drained }))
    }
    const nginx = Nginx.start(join(dir, 'nginx'), `127.0.0.1:${options.port}`, upstreams())
    started.push({ stop: () => stopProcess(nginx.child) })
    const origin = `http://127.0.0.1:${options.port}`
    await waitFor('nginx', nginx.child, () => isReady(origin), 15_000)

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
