/**
 * deploy/kubernetes/ as `kubectl apply -k` would take it, checked without a cluster: every object valid against
 * the Kubernetes API's schemas (strict: no unknown field), every flag one preconf-rpc accepts in the role it
 * runs, every Service and probe pointing at a port that is there, the sequencer and followers set up to be
 * restarted, scaled and rolled without losing what they hold. test/deploy/image.test.ts runs the same command
 * lines; network-policy.test.ts and nginx-config.test.ts check the wiring between the pods.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { parseCommandLine } from '../../src/flags.js'
import { SHUTDOWN_EXIT_MS } from '../../src/limits.js'
import { instructionsOf, readContainerfile } from '../support/containerfile.js'
import { containerPort, resolveService, selects, workload, workloads, type Container } from '../support/k8s-pods.js'
import { validateObjects } from '../support/k8s-schemas.js'
import { findObject, loadKustomization } from '../support/kustomize.js'
import { REPO_ROOT } from '../support/run-script.js'

const DIR = join(REPO_ROOT, 'deploy', 'kubernetes')
const k = loadKustomization(DIR)
const IMAGE = 'preconf-rpc'
const { version } = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }

/** Every container running the service, with where it is. */
const serviceContainers = workloads(k).flatMap((w) =>
  w.containers.filter((c) => c.image === IMAGE).map((container) => ({ workload: w, container })),
)

/** The value after `flag` in a container's args. */
const flagValue = (container: Container, flag: string) => container.args?.[container.args.indexOf(flag) + 1]

/** The seconds a pod's preStop hook sleeps before SIGTERM (0 without one). */
function preStopSeconds(container: Container): number {
  const command: string[] = container.lifecycle?.preStop?.exec?.command ?? []
  return command[0] === 'sleep' ? Number(command[1]) : 0
}

test('every manifest parses and is valid against the Kubernetes API schemas, with no field the API lacks', () => {
  expect(k.resources.length).toBeGreaterThan(10)
  expect(validateObjects(k.resources)).toEqual([])
}, 60_000)

test('a misspelled field or a wrong type in a manifest is reported, naming the object', () => {
  const sequencer = structuredClone(findObject(k, 'StatefulSet', 'preconf-rpc-sequencer'))
  const container = sequencer.spec.template.spec.containers[0]
  container.readinesProbe = container.readinessProbe
  sequencer.spec.replicas = 'one'
  const problems = validateObjects([{ file: 'sequencer.yaml', object: sequencer }])
  expect(problems).toEqual(
    expect.arrayContaining([
      expect.stringMatching(/StatefulSet preconf-rpc-sequencer: .*replicas must be integer/),
      expect.stringMatching(/StatefulSet preconf-rpc-sequencer: .*readinesProbe.* does not exist in type 'IContainer'/),
    ]),
  )
  for (const problem of problems) expect(problem).toMatch(/^sequencer.yaml: StatefulSet preconf-rpc-sequencer: /)
}, 60_000)

test('the kustomizations list every file beside them, so `kubectl apply -k` applies all of it', () => {
  const onDisk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory() ? onDisk(join(dir, entry.name)) : [join(dir, entry.name).slice(REPO_ROOT.length + 1)],
    )
  expect(k.files.toSorted()).toEqual(onDisk(DIR).toSorted())
  expect(k.namespace).toBe('preconf-rpc')
})

test('the workloads run the image deploy/Containerfile builds, at this version, with its entrypoint', () => {
  expect(serviceContainers.map((s) => s.workload.object.metadata.name).toSorted()).toEqual([
    'preconf-rpc-follower',
    'preconf-rpc-sequencer',
  ])
  expect(k.images).toEqual([{ name: IMAGE, newTag: version }])
  for (const { container } of serviceContainers) {
    // `command` would replace the image's ENTRYPOINT, which image.test.ts runs
    expect(container.command).toBeUndefined()
    expect(container.args).toBeDefined()
  }
})

describe('every flag', () => {
  test.each(serviceContainers.map((s) => [s.workload.object.metadata.name, s.container] as const))(
    'of %s is one preconf-rpc accepts, with a value it accepts',
    (_name, container) => {
      expect(() => parseCommandLine(container.args!)).not.toThrow()
    },
  )

  test("of the image's CMD is one preconf-rpc accepts", () => {
    const cmd = instructionsOf(readContainerfile(join(REPO_ROOT, 'deploy', 'Containerfile')).at(-1)!, 'CMD')
    expect(cmd).toHaveLength(1)
    expect(() => parseCommandLine(cmd[0]!.json!)).not.toThrow()
  })

  test('that is misspelled fails, naming the flag', () => {
    const args = [...workload(k, 'preconf-rpc-follower').containers[0]!.args!]
    args[args.indexOf('--trusted-proxies')] = '--trusted-proxy'
    expect(() => parseCommandLine(args)).toThrow('unknown flag --trusted-proxy')
  })
})

test('the followers follow the sequencer and forward writes to it; both share Redis', () => {
  const follower = workload(k, 'preconf-rpc-follower').containers[0]!
  const sequencer = workload(k, 'preconf-rpc-sequencer').containers[0]!
  const followerConfig = parseCommandLine(follower.args!).config
  const sequencerConfig = parseCommandLine(sequencer.args!).config
  expect(sequencerConfig.upstream).toBeUndefined()
  for (const url of [
    followerConfig.upstream!,
    followerConfig.upstreamFeed!,
    followerConfig.sequencer ?? followerConfig.upstream!,
  ]) {
    const { hostname, port } = new URL(url)
    const target = resolveService(k, hostname, Number(port))
    expect(target.workloads.map((w) => w.object.metadata.name)).toEqual(['preconf-rpc-sequencer'])
    expect(target.containerPort).toBe(sequencerConfig.port)
  }
  for (const config of [followerConfig, sequencerConfig]) {
    const { hostname, port } = new URL(config.redisUrl!)
    expect(resolveService(k, hostname, Number(port)).workloads.map((w) => w.object.metadata.name)).toEqual([
      'preconf-rpc-redis',
    ])
  }
  // the pod network (nginx's pods) is trusted for X-Forwarded-For, or every client shares nginx's rate limit
  expect(followerConfig.trustedProxies.length).toBeGreaterThan(0)
  // listening beyond loopback, or no other pod reaches it; and signing for nobody on that port
  for (const config of [followerConfig, sequencerConfig]) expect(config.host).toBe('0.0.0.0')
  expect(sequencerConfig.devAccounts).toBe(false)
})

test("every Service selects a workload's pods and leads to a port their container exposes", () => {
  const services = k.resources.map((r) => r.object).filter((o) => o.kind === 'Service')
  expect(services.length).toBeGreaterThanOrEqual(5)
  for (const service of services)
    for (const { port } of service.spec.ports)
      expect(() => resolveService(k, service.metadata.name, port)).not.toThrow()
})

test('every probe and scrape annotation of the service names the port its --port opens', () => {
  for (const { workload: w, container } of serviceContainers) {
    const port = parseCommandLine(container.args!).config.port
    expect(containerPort(container, port)).toBe(port)
    for (const probe of ['startupProbe', 'readinessProbe', 'livenessProbe'])
      expect(containerPort(container, container[probe].httpGet.port), `${probe} of ${w.object.metadata.name}`).toBe(
        port,
      )
    expect(container.readinessProbe.httpGet.path).toBe('/ready')
    expect(container.livenessProbe.httpGet.path).toBe('/health')
    expect(w.annotations).toMatchObject({ 'prometheus.io/scrape': 'true', 'prometheus.io/port': String(port) })
  }
})

test('the sequencer is one pod whose --data-dir is a persistent volume, with time to close before it is killed', () => {
  const sequencer = workload(k, 'preconf-rpc-sequencer')
  expect(sequencer.object.kind).toBe('StatefulSet')
  expect(sequencer.object.spec.replicas).toBe(1)
  const container = sequencer.containers[0]!
  const dataDir = flagValue(container, '--data-dir')
  const mount = container.volumeMounts.find((m: { mountPath: string }) => m.mountPath === dataDir)
  expect(mount, `a volume mounted at --data-dir ${dataDir}`).toBeDefined()
  const claims = sequencer.object.spec.volumeClaimTemplates.map((c: { metadata: { name: string } }) => c.metadata.name)
  expect(claims).toContain(mount.name)
  // the CLI exits SHUTDOWN_EXIT_MS after SIGTERM at the latest; SIGKILL comes terminationGracePeriodSeconds after it
  expect(sequencer.spec.terminationGracePeriodSeconds * 1000).toBeGreaterThan(
    preStopSeconds(container) * 1000 + SHUTDOWN_EXIT_MS,
  )
})

test('followers scale on CPU, keep one at most out in a disruption, and roll one at a time behind readiness', () => {
  const follower = workload(k, 'preconf-rpc-follower')
  const container = follower.containers[0]!
  const hpa = k.resources.map((r) => r.object).find((o) => o.kind === 'HorizontalPodAutoscaler')!
  expect(hpa.spec.scaleTargetRef).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', name: 'preconf-rpc-follower' })
  expect(hpa.spec.metrics).toEqual([expect.objectContaining({ resource: expect.objectContaining({ name: 'cpu' }) })])
  expect(hpa.spec.minReplicas).toBeGreaterThanOrEqual(2)
  // utilisation is relative to the request: without one the autoscaler does nothing
  expect(container.resources.requests.cpu).toBeDefined()
  // a `replicas` here would undo the autoscaler's count on every apply
  expect(follower.object.spec.replicas).toBeUndefined()
  const pdb = k.resources.map((r) => r.object).find((o) => o.kind === 'PodDisruptionBudget')!
  expect(selects(pdb.spec.selector, follower.labels)).toBe(true)
  expect(pdb.spec.maxUnavailable).toBe(1)
  expect(follower.object.spec.strategy.rollingUpdate).toEqual({ maxSurge: 1, maxUnavailable: 0 })
  expect(follower.spec.terminationGracePeriodSeconds * 1000).toBeGreaterThan(
    preStopSeconds(container) * 1000 + SHUTDOWN_EXIT_MS,
  )
})

test('the ServiceMonitor scrapes /metrics of the sequencer and of the followers, each once', () => {
  const monitor = findObject(k, 'ServiceMonitor', 'preconf-rpc')
  const selected = k.resources
    .map((r) => r.object)
    .filter((o) => o.kind === 'Service' && selects(monitor.spec.selector, o.metadata.labels ?? {}))
  expect(selected.map((s) => s.metadata.name).toSorted()).toEqual(['preconf-rpc-follower', 'preconf-rpc-sequencer'])
  for (const service of selected)
    for (const endpoint of monitor.spec.endpoints) {
      expect(service.spec.ports.map((p: { name: string }) => p.name)).toContain(endpoint.port)
      expect(endpoint.path).toBe('/metrics')
    }
})
