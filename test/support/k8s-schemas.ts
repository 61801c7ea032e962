/**
 * For tests: Kubernetes objects checked against the API's schemas without a cluster, as the API server checks
 * them on `kubectl apply` (whose field validation is strict: an unknown field is an error). Two halves of one
 * package, kubernetes-models (and @kubernetes-models/prometheus-operator for the operator's CRDs): its
 * JSON-schema validators (types, required fields, formats, enums), and its TypeScript types, against which each
 * object is type-checked as an object literal so a field the API does not have (a misspelling) is an error.
 */
import { ServiceMonitor } from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/ServiceMonitor'
import { Deployment } from 'kubernetes-models/apps/v1/Deployment'
import { StatefulSet } from 'kubernetes-models/apps/v1/StatefulSet'
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler'
import { NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy'
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget'
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap'
import { Namespace } from 'kubernetes-models/v1/Namespace'
import { Service } from 'kubernetes-models/v1/Service'
import { Project, ts } from 'ts-morph'
import type { Resource } from './kustomize.js'
import { REPO_ROOT } from './run-script.js'

/** A model's constructor takes the object as written; `never`, because each wants its own shape. */
type ModelClass = new (data: never) => { validate(): void }

/** The kinds the manifests use, by `apiVersion/kind`; a new kind is added here (and so gets checked). */
const MODELS: Record<string, ModelClass> = {
  'v1/Namespace': Namespace,
  'v1/Service': Service,
  'v1/ConfigMap': ConfigMap,
  'apps/v1/Deployment': Deployment,
  'apps/v1/StatefulSet': StatefulSet,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
  'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  'networking.k8s.io/v1/NetworkPolicy': NetworkPolicy,
  'monitoring.coreos.com/v1/ServiceMonitor': ServiceMonitor,
}

/** The package holding an API group's models; the Kubernetes groups are all in kubernetes-models. */
const GROUP_PACKAGES: Record<string, string> = { 'monitoring.coreos.com': '@kubernetes-models/prometheus-operator' }

const label = ({ file, object }: Resource) => `${file}: ${object.kind} ${object.metadata?.name}`

/** Each object's problems, as `file: Kind name: problem`; empty when all are valid. */
export function validateObjects(resources: readonly Resource[]): string[] {
  const problems: string[] = []
  const known: Resource[] = []
  for (const resource of resources) {
    const { apiVersion, kind } = resource.object
    const Model = MODELS[`${apiVersion}/${kind}`]
    if (!Model) {
      problems.push(`${label(resource)}: no schema for ${apiVersion} ${kind} (add it to test/support/k8s-schemas.ts)`)
      continue
    }
    known.push(resource)
    try {
      new Model(resource.object as never).validate()
    } catch (err) {
      problems.push(`${label(resource)}: ${(err as Error).message}`)
    }
  }
  return [...problems, ...unknownFields(known)]
}

/** Fields the API does not have: each object type-checked as a literal of its model's interface. */
function unknownFields(resources: readonly Resource[]): string[] {
  const project = new Project({
    compilerOptions: {
      strict: true,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2022,
      skipLibCheck: true,
      // the models' types only, not every @types package of the repository
      types: [],
    },
    skipAddingFilesFromTsConfig: true,
  })
  const imports = resources.map(({ object: { apiVersion, kind } }, i) => {
    const group = apiVersion.includes('/') ? apiVersion.split('/')[0]! : ''
    const module = `${GROUP_PACKAGES[group] ?? 'kubernetes-models'}/${apiVersion}/${kind}`
    return `import type { I${kind} as T${i} } from '${module}'`
  })
  // one line per object, after the imports, so a diagnostic's line names its object
  const objects = resources.map(({ object }, i) => `export const o${i}: T${i} = ${JSON.stringify(object)}`)
  // in the repository, so the packages resolve from its node_modules; never written to disk
  const source = project.createSourceFile(
    `${REPO_ROOT}/test/.k8s-objects.check.ts`,
    [...imports, ...objects].join('\n'),
    {
      overwrite: true,
    },
  )
  return source.getPreEmitDiagnostics().map((d) => {
    const owner = resources[source.getLineAndColumnAtPos(d.getStart() ?? 0).line - 1 - imports.length]
    const message = ts.flattenDiagnosticMessageText(d.compilerObject.messageText, ' ')
    return `${owner ? label(owner) : 'manifests'}: ${message}`
  })
}
