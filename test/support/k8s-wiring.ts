/**
 * For tests: who connects to whom in deploy/kubernetes/, read from what makes each connection rather than
 * written down again: the URLs in preconf-rpc's flags (--upstream, --upstream-feed, --sequencer, --redis-url),
 * the `server` lines of the nginx.conf the nginx pods mount, and what Prometheus scrapes (the ServiceMonitor's
 * Services, the pods' prometheus.io/port annotations).
 */
import { parseCommandLine } from '../../src/flags.js'
import { resolveService, selects, workloads, type Workload } from './k8s-pods.js'
import type { K8sObject, Kustomization } from './kustomize.js'

export interface Connection {
  /** A workload's name, or `prometheus`. */
  from: string
  to: Workload
  port: number
  /** What makes it: the flag or file. */
  because: string
}

const URL_FLAGS = ['upstream', 'upstreamFeed', 'sequencer', 'redisUrl'] as const

/** The text of the file at `path` in `w`'s containers, mounted from a ConfigMap of the manifests. */
export function mountedFile(k: Kustomization, w: Workload, path: string): string {
  const container = w.containers.find((c) =>
    c.volumeMounts?.some((m: { mountPath: string }) => path.startsWith(`${m.mountPath}/`)),
  )
  const mount = container?.volumeMounts.find((m: { mountPath: string }) => path.startsWith(`${m.mountPath}/`))
  if (!mount) throw new Error(`${w.object.metadata.name} mounts nothing at ${path}`)
  const volume = w.spec.volumes.find((v: { name: string }) => v.name === mount.name)
  const configMap = k.resources
    .map((r) => r.object)
    .find((o: K8sObject) => o.kind === 'ConfigMap' && o.metadata.name === volume?.configMap?.name)
  const text = configMap?.data?.[path.slice(mount.mountPath.length + 1)]
  if (text === undefined) throw new Error(`${path} of ${w.object.metadata.name} is in no ConfigMap of the manifests`)
  return text
}

/** The `-c` file of an nginx container. */
export function nginxConfigPath(w: Workload): string | undefined {
  const command = w.containers.find((c) => c.command?.[0] === 'nginx')?.command
  return command?.[command.indexOf('-c') + 1]
}

export function connections(k: Kustomization): Connection[] {
  const found: Connection[] = []
  for (const w of workloads(k)) {
    const name = w.object.metadata.name
    for (const container of w.containers.filter((c) => c.image === 'preconf-rpc')) {
      const config = parseCommandLine(container.args ?? []).config
      for (const flag of URL_FLAGS) {
        if (!config[flag]) continue
        const url = new URL(config[flag])
        const target = resolveService(k, url.hostname, Number(url.port))
        for (const to of target.workloads) found.push({ from: name, to, port: target.containerPort, because: flag })
      }
    }
    const nginxConf = nginxConfigPath(w)
    if (nginxConf) {
      for (const [, host, port] of mountedFile(k, w, nginxConf).matchAll(/^\s*server\s+([^\s:]+):(\d+)/gm)) {
        const target = resolveService(k, host!, Number(port))
        for (const to of target.workloads)
          found.push({ from: name, to, port: target.containerPort, because: 'nginx.conf' })
      }
    }
    const annotated = w.annotations['prometheus.io/port']
    if (w.annotations['prometheus.io/scrape'] === 'true' && annotated)
      found.push({ from: 'prometheus', to: w, port: Number(annotated), because: 'prometheus.io/port' })
  }
  for (const monitor of k.resources.map((r) => r.object).filter((o) => o.kind === 'ServiceMonitor')) {
    const services = k.resources
      .map((r) => r.object)
      .filter((o) => o.kind === 'Service' && selects(monitor.spec.selector, o.metadata.labels ?? {}))
    for (const service of services)
      for (const endpoint of monitor.spec.endpoints) {
        const port = service.spec.ports.find((p: { name: string }) => p.name === endpoint.port)
        const target = resolveService(k, service.metadata.name, port.port)
        for (const to of target.workloads)
          found.push({ from: 'prometheus', to, port: target.containerPort, because: 'ServiceMonitor' })
      }
  }
  // nginx's two server lines lead to the same pods
  return [...new Map(found.map((c) => [`${c.from} ${c.to.object.metadata.name} ${c.port} ${c.because}`, c])).values()]
}
