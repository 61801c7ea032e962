/**
 * The nginx of deploy/kubernetes/ runs deploy/nginx.conf.template's rules, the ones `npm run cluster` runs and
 * test/cluster checks with a real nginx (reads retried on another member, writes never resent): its nginx.conf
 * must be that template with the placeholders filled for the pods, and every filled value must fit the pod
 * (the port it listens on, a writable prefix, the followers' headless Service, an nginx that can resolve it).
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { resolveService, workloads } from '../support/k8s-pods.js'
import { mountedFile, nginxConfigPath } from '../support/k8s-wiring.js'
import { loadKustomization } from '../support/kustomize.js'
import { REPO_ROOT } from '../support/run-script.js'

const k = loadKustomization(join(REPO_ROOT, 'deploy', 'kubernetes'))
const nginx = workloads(k).find((w) => nginxConfigPath(w) !== undefined)!
const container = nginx.containers.find((c) => c.command?.[0] === 'nginx')!
const conf = mountedFile(k, nginx, nginxConfigPath(nginx)!)

/** The text after the leading comment block: the rules. */
const rules = (text: string) => text.replace(/^(#[^\n]*\n|\n)*/, '')

/**
 * The template as a pattern: its text literally, each {{placeholder}} a capture (one line, or any text for
 * `servers`), a placeholder used again the same value.
 */
function templatePattern(template: string): RegExp {
  const seen = new Set<string>()
  const source = rules(template)
    .split(/(\{\{\w+\}\})/)
    .map((part) => {
      const name = /^\{\{(\w+)\}\}$/.exec(part)?.[1]
      if (!name) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
      if (seen.has(name)) return `\\k<${name}>`
      seen.add(name)
      return name === 'servers' ? `(?<${name}>[\\s\\S]*?)` : `(?<${name}>[^\\n]*?)`
    })
    .join('')
  return new RegExp(`^${source}$`)
}

const template = readFileSync(join(REPO_ROOT, 'deploy', 'nginx.conf.template'), 'utf8')
const filled = templatePattern(template).exec(rules(conf))?.groups

test("nginx.conf is deploy/nginx.conf.template's rules, with only the placeholders filled in", () => {
  expect(
    filled,
    'deploy/kubernetes/base/nginx.conf differs from deploy/nginx.conf.template outside its placeholders',
  ).toBeDefined()
  // the retry rules are there, as test/cluster checks them
  expect(conf).toContain('proxy_next_upstream error timeout http_502 http_503 http_504 non_idempotent;')
  expect(conf).toMatch(/map \$request_body \$rpc_write/)
})

test('a template whose retry rules changed without nginx.conf fails the comparison', () => {
  const changed = template.replace('non_idempotent;', ';')
  expect(templatePattern(changed).exec(rules(conf))).toBeNull()
})

test('nginx listens on its container port, writes under an emptyDir, and logs to the container log', () => {
  expect(container.ports!.map((p) => String(p.containerPort))).toContain(filled!.listen)
  const prefixMount = container.volumeMounts.find((m: { mountPath: string }) => m.mountPath === filled!.prefix)
  expect(prefixMount, `a volume at ${filled!.prefix}`).toBeDefined()
  expect(nginx.spec.volumes.find((v: { name: string }) => v.name === prefixMount.name).emptyDir).toBeDefined()
  expect(filled!.error_log).toBe('/dev/stderr')
})

test("nginx's members are the ready followers, re-resolved through a headless Service, and all of them while none is", () => {
  const servers = [...filled!.servers!.matchAll(/^\s*server\s+([^\s:]+):(\d+)\s+([^;]*);/gm)].map(
    ([, host, port, parameters]) => {
      const target = resolveService(k, host!, Number(port))
      expect(host).toBe(`${target.service.metadata.name}.${k.namespace}.svc.cluster.local`)
      expect(target.workloads.map((w) => w.object.metadata.name)).toEqual(['preconf-rpc-follower'])
      // a virtual IP would make "retry on another member" a retry on the same address
      expect(target.service.spec.clusterIP).toBe('None')
      const flags = parameters!.split(/\s+/)
      expect(flags).toEqual(expect.arrayContaining(['resolve', 'max_fails=1', 'fail_timeout=2s']))
      return { backup: flags.includes('backup'), notReadyToo: target.service.spec.publishNotReadyAddresses === true }
    },
  )
  expect(servers).toEqual([
    { backup: false, notReadyToo: false },
    { backup: true, notReadyToo: true },
  ])
  // `resolve` needs a shared-memory zone and a resolver in the upstream block
  expect(filled!.servers).toMatch(/^\s*zone \w+ \w+;$/m)
  expect(filled!.servers).toMatch(/^\s*resolver \S+ valid=\w+;$/m)
})

test('the nginx image is one whose open-source build resolves upstream servers (1.27.3 or later)', () => {
  const [major = 0, minor = 0, patch = 99] = (/^nginx:(\d+)\.(\d+)(?:\.(\d+))?/.exec(container.image) ?? [])
    .slice(1)
    .map((n) => (n === undefined ? undefined : Number(n)))
  expect(major * 1e6 + minor * 1e3 + patch).toBeGreaterThanOrEqual(1_027_003)
})
