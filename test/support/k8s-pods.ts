/**
 * For tests: what the manifests' pods are and how they find each other, read the way Kubernetes does: label
 * selectors, a Service's selector and ports, a container's named ports, `<service>[.<namespace>...]` host names.
 */
import type { K8sObject, Kustomization } from './kustomize.js'

export interface LabelSelector {
  matchLabels?: Record<string, string>
  matchExpressions?: { key: string; operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist'; values?: string[] }[]
}

interface ContainerPort {
  name?: string
  containerPort: number
}

export interface Container {
  name: string
  image: string
  command?: string[]
  args?: string[]
  ports?: ContainerPort[]
  // biome-ignore lint/suspicious/noExplicitAny: probes, lifecycle, resources are read field by field
  [field: string]: any
}

/** The pods a Deployment or StatefulSet makes. */
export interface Workload {
  object: K8sObject
  labels: Record<string, string>
  annotations: Record<string, string>
  // biome-ignore lint/suspicious/noExplicitAny: the pod spec, read field by field
  spec: any
  containers: Container[]
}

/** True when `labels` satisfy `selector` (an empty selector selects everything, as Kubernetes has it). */
export function selects(selector: LabelSelector | undefined, labels: Record<string, string>): boolean {
  for (const [key, value] of Object.entries(selector?.matchLabels ?? {})) if (labels[key] !== value) return false
  for (const { key, operator, values = [] } of selector?.matchExpressions ?? []) {
    const has = key in labels
    if (operator === 'In' && !(has && values.includes(labels[key]!))) return false
    if (operator === 'NotIn' && has && values.includes(labels[key]!)) return false
    if (operator === 'Exists' && !has) return false
    if (operator === 'DoesNotExist' && has) return false
  }
  return true
}

export function workloads(k: Kustomization): Workload[] {
  return k.resources
    .map((r) => r.object)
    .filter((o) => o.kind === 'Deployment' || o.kind === 'StatefulSet')
    .map((object) => ({
      object,
      labels: object.spec.template.metadata?.labels ?? {},
      annotations: object.spec.template.metadata?.annotations ?? {},
      spec: object.spec.template.spec,
      containers: object.spec.template.spec.containers,
    }))
}

/** The workload by name; throws naming it when missing. */
export function workload(k: Kustomization, name: string): Workload {
  const found = workloads(k).find((w) => w.object.metadata.name === name)
  if (!found) throw new Error(`no Deployment or StatefulSet ${name} in the manifests`)
  return found
}

/** A container's port by number or name; undefined when it exposes no such port. */
export function containerPort(container: Container, port: number | string): number | undefined {
  const found = container.ports?.find((p) => p.containerPort === port || p.name === port)
  return found?.containerPort
}

export interface ServiceTarget {
  service: K8sObject
  /** The workloads whose pods it selects. */
  workloads: Workload[]
  /** The container port its port leads to. */
  containerPort: number
}

/**
 * Where a connection to `host:port` from inside `namespace` lands: the Service of that name (short or
 * `<name>.<namespace>.svc.cluster.local`), the workloads it selects, the container port behind its port.
 * Throws saying what does not resolve.
 */
export function resolveService(k: Kustomization, host: string, port: number): ServiceTarget {
  const [name, namespace = k.namespace] = host.split('.')
  const service = k.resources
    .map((r) => r.object)
    .find((o) => o.kind === 'Service' && o.metadata.name === name && o.metadata.namespace === namespace)
  if (!service) throw new Error(`${host}: no Service ${name} in namespace ${namespace}`)
  const servicePort = service.spec.ports.find((p: { port: number }) => p.port === port)
  if (!servicePort) throw new Error(`${host}:${port}: Service ${name} has no port ${port}`)
  const selected = workloads(k).filter((w) => selects({ matchLabels: service.spec.selector }, w.labels))
  if (selected.length === 0) throw new Error(`${host}: Service ${name} selects no pods`)
  const targets = selected.map((w) => {
    const target = w.containers
      .map((c) => containerPort(c, servicePort.targetPort ?? port))
      .find((p) => p !== undefined)
    if (target === undefined)
      throw new Error(`${host}:${port}: ${w.object.metadata.name} has no port ${servicePort.targetPort ?? port}`)
    return target
  })
  return { service, workloads: selected, containerPort: targets[0]! }
}
