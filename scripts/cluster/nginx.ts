/**
 * nginx as the cluster's entry: deploy/nginx.conf.template rendered into a temporary prefix (so it runs as
 * any user: pid file, logs and temp paths all there), started in the foreground, reloaded (SIGHUP) when the
 * members it may send traffic to change.
 */
import type { ChildProcess } from 'node:child_process'
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

/** The Debian package's binary; NGINX overrides it. */
export const NGINX = process.env.NGINX ?? '/usr/sbin/nginx'
export const HAVE_NGINX = existsSync(NGINX)

const TEMPLATE = fileURLToPath(new URL('../../deploy/nginx.conf.template', import.meta.url))

export interface UpstreamMember {
  /** host:port */
  address: string
  /** Rendered `down`: its /ready answers 503, nginx sends it nothing. */
  down: boolean
}

function renderConfig(prefix: string, listen: string, members: readonly UpstreamMember[]): string {
  const servers = members
    .map((m) => `    server ${m.address} max_fails=1 fail_timeout=2s${m.down ? ' down' : ''};`)
    .join('\n')
  return readFileSync(TEMPLATE, 'utf8')
    .replaceAll('{{prefix}}', prefix)
    .replaceAll('{{error_log}}', join(prefix, 'error.log'))
    .replaceAll('{{listen}}', listen)
    .replaceAll('{{servers}}', servers)
}

export class Nginx {
  private constructor(
    private readonly prefix: string,
    private readonly listen: string,
    readonly child: ChildProcess,
  ) {}

  get conf(): string {
    return join(this.prefix, 'nginx.conf')
  }

  /** Renders the config, checks it with `nginx -t`, starts nginx in the foreground. */
  static start(prefix: string, listen: string, members: readonly UpstreamMember[]): Nginx {
    for (const dir of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(join(prefix, dir), { recursive: true })
    const conf = join(prefix, 'nginx.conf')
    writeFileSync(conf, renderConfig(prefix, listen, members))
    const args = ['-p', prefix, '-e', join(prefix, 'error.log'), '-c', conf]
    const test = spawnSync(NGINX, [...args, '-t', '-q'], { encoding: 'utf8' })
    if (test.status !== 0) throw new Error(`nginx rejected ${conf}:\n${test.stderr}`)
    const child = spawn(NGINX, [...args, '-g', 'daemon off;'], { stdio: ['ignore', 'ignore', 'inherit'] })
    return new Nginx(prefix, listen, child)
  }

  /** New members (or states): rewrite the config and let nginx's master swap workers gracefully. */
  reload(members: readonly UpstreamMember[]): void {
    // whole or not at all: a reload still reading the file when the next one rewrote it in place read half a
    // config ("unexpected end of file") and kept its old one
    const next = `${this.conf}.next`
    writeFileSync(next, renderConfig(this.prefix, this.listen, members))
    renameSync(next, this.conf)
    this.child.kill('SIGHUP')
  }
}
