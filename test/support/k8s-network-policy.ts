/**
 * For tests: whether the manifests' NetworkPolicies let a connection in, decided as the network plugin does
 * for pods (ingress only, which is all the manifests restrict): a pod no policy selects takes any connection;
 * a pod some policy selects takes those one of its rules allows, by peer (pod and namespace selectors) and
 * port (a number or the name of a container port).
 */
import { containerPort, selects, type Workload } from './k8s-pods.js'
import type { Kustomization } from './kustomize.js'

/** Who connects: a pod's labels, its namespace and that namespace's labels. */
export interface Peer {
  name: string
  labels: Record<string, string>
  namespace: string
  namespaceLabels: Record<string, string>
}

interface PolicyPeer {
  podSelector?: object
  namespaceSelector?: object
  ipBlock?: object
}

interface IngressRule {
  from?: PolicyPeer[]
  ports?: { port?: number | string; protocol?: string }[]
}

function peerMatches(rule: PolicyPeer, from: Peer, namespace: string): boolean {
  if (rule.ipBlock) return false // addresses outside the cluster's pods
  const namespaceOk = rule.namespaceSelector
    ? selects(rule.namespaceSelector, from.namespaceLabels)
    : from.namespace === namespace
  return namespaceOk && (rule.podSelector ? selects(rule.podSelector, from.labels) : true)
}

/** True when a TCP connection from `from` to `port` of a pod of `to` gets in. */
export function ingressAllowed(k: Kustomization, from: Peer, to: Workload, port: number): boolean {
  const namespace = to.object.metadata.namespace ?? 'default'
  const policies = k.resources
    .map((r) => r.object)
    .filter(
      (o) =>
        o.kind === 'NetworkPolicy' &&
        o.metadata.namespace === namespace &&
        selects(o.spec.podSelector, to.labels) &&
        (o.spec.policyTypes ?? ['Ingress']).includes('Ingress'),
    )
  if (policies.length === 0) return true
  return policies.some((policy) =>
    (policy.spec.ingress ?? []).some((rule: IngressRule) => {
      const peerOk = !rule.from?.length || rule.from.some((peer) => peerMatches(peer, from, namespace))
      const portOk =
        !rule.ports?.length ||
        rule.ports.some(
          (p) =>
            (p.protocol ?? 'TCP') === 'TCP' &&
            (p.port === undefined ||
              p.port === port ||
              (typeof p.port === 'string' && to.containers.some((c) => containerPort(c, p.port!) === port))),
        )
      return peerOk && portOk
    }),
  )
}
