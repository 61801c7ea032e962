/**
 * The NetworkPolicies of deploy/kubernetes/ against the connections the pods make (read from their flags,
 * nginx.conf and the Prometheus settings by test/support/k8s-wiring.ts): every one of those gets in, and
 * nothing else does but clients reaching nginx. So a new connection without a policy fails here, and so does a
 * policy that lets a pod reach the sequencer or Redis that has no business there.
 */
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { ingressAllowed, type Peer } from '../support/k8s-network-policy.js'
import { workloads } from '../support/k8s-pods.js'
import { connections } from '../support/k8s-wiring.js'
import { loadKustomization } from '../support/kustomize.js'
import { REPO_ROOT } from '../support/run-script.js'

const k = loadKustomization(join(REPO_ROOT, 'deploy', 'kubernetes'))
const namespace = k.namespace!
const inNamespace = (name: string, labels: Record<string, string>, ns = namespace): Peer => ({
  name,
  labels,
  namespace: ns,
  namespaceLabels: { 'kubernetes.io/metadata.name': ns },
})

/** Every pod of the manifests, Prometheus (as the operator labels it) and two pods that have no business here. */
const peers: Peer[] = [
  ...workloads(k).map((w) => inNamespace(w.object.metadata.name, w.labels)),
  inNamespace('prometheus', { 'app.kubernetes.io/name': 'prometheus' }, 'monitoring'),
  inNamespace('another pod of the namespace', { app: 'something-else' }),
  inNamespace('a pod of another namespace', { app: 'something-else' }, 'default'),
]

/** `from -> to:port` for every peer, pod and container port the policies let in. */
function allowed(): string[] {
  const lines: string[] = []
  for (const to of workloads(k))
    for (const port of to.containers.flatMap((c) => c.ports ?? []).map((p) => p.containerPort))
      for (const from of peers)
        if (ingressAllowed(k, from, to, port)) lines.push(`${from.name} -> ${to.object.metadata.name}:${port}`)
  return lines.toSorted()
}

test('the pods connect where their flags, nginx.conf and Prometheus point: followers to the sequencer and Redis, the sequencer to Redis, nginx to followers', () => {
  const made = connections(k).map((c) => `${c.from} -> ${c.to.object.metadata.name}:${c.port} (${c.because})`)
  expect(made.toSorted()).toEqual([
    'preconf-rpc-follower -> preconf-rpc-redis:6379 (redisUrl)',
    'preconf-rpc-follower -> preconf-rpc-sequencer:8545 (upstream)',
    'preconf-rpc-follower -> preconf-rpc-sequencer:8545 (upstreamFeed)',
    'preconf-rpc-nginx -> preconf-rpc-follower:8545 (nginx.conf)',
    'preconf-rpc-sequencer -> preconf-rpc-redis:6379 (redisUrl)',
    'prometheus -> preconf-rpc-follower:8545 (ServiceMonitor)',
    'prometheus -> preconf-rpc-follower:8545 (prometheus.io/port)',
    'prometheus -> preconf-rpc-sequencer:8545 (ServiceMonitor)',
    'prometheus -> preconf-rpc-sequencer:8545 (prometheus.io/port)',
  ])
})

test('the NetworkPolicies let in exactly those connections, and anyone to nginx', () => {
  const needed = connections(k).map((c) => `${c.from} -> ${c.to.object.metadata.name}:${c.port}`)
  const nginx = workloads(k).find((w) => w.containers.some((c) => c.command?.[0] === 'nginx'))!
  const nginxPort = nginx.containers[0]!.ports![0]!.containerPort
  const public_ = peers.map((p) => `${p.name} -> ${nginx.object.metadata.name}:${nginxPort}`)
  expect(allowed()).toEqual([...new Set([...needed, ...public_])].toSorted())
})

test('no pod but the followers reaches the sequencer, and none but the followers and the sequencer reaches Redis', () => {
  const reach = (to: string) =>
    allowed()
      .filter((line) => line.includes(` -> ${to}:`) && !line.startsWith('prometheus '))
      .map((line) => line.split(' -> ')[0])
  expect(reach('preconf-rpc-sequencer')).toEqual(['preconf-rpc-follower'])
  expect(reach('preconf-rpc-redis').toSorted()).toEqual(['preconf-rpc-follower', 'preconf-rpc-sequencer'])
})
