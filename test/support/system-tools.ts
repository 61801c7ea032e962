/**
 * The Debian packages some test groups need, in one place: whether each is here, and which groups go
 * without it. A run on a machine without some of them ends with one line naming the skipped groups and the
 * one apt-get command that enables them (missing-tools-reporter.ts); .ci/run installs them.
 */
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { HAVE_NGINX, NGINX } from '../../scripts/cluster/nginx.js'

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

/** True when a redis-server binary is on PATH. */
export const HAVE_REDIS_SERVER = spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0
export const HAVE_CHROMIUM = existsSync(CHROMIUM)

/** The cluster tests need both; in CI (CI=true) their absence is a failure, not a skip. */
export const SKIP_CLUSTER = !(HAVE_NGINX && HAVE_REDIS_SERVER) && process.env.CI !== 'true'

const TOOLS = [
  {
    apt: 'redis-server',
    here: HAVE_REDIS_SERVER,
    groups: ['the shared rate limit and filters (Redis)', 'the container image run (deploy/Containerfile)'],
  },
  { apt: 'chromium', here: HAVE_CHROMIUM, groups: ['the browser tests of /docs and /live'] },
  { apt: 'nginx', here: HAVE_NGINX, groups: [] as string[] },
]

/** The line a run ends with when some tools are missing; undefined when all are here. */
export function missingToolsLine(): string | undefined {
  const missing = TOOLS.filter((t) => !t.here)
  if (missing.length === 0) return undefined
  const groups = missing.flatMap((t) => t.groups)
  if (SKIP_CLUSTER) groups.push(`the cluster tests (nginx ${NGINX} and redis-server)`)
  return `skipped for want of ${missing.map((t) => t.apt).join(', ')}: ${groups.join('; ')}. To run them: apt-get install -y ${missing.map((t) => t.apt).join(' ')}`
}
