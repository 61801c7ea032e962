/**
 * For tests: a kustomize directory (deploy/kubernetes/) read as `kubectl apply -k` would see it, without a
 * cluster or kustomize: the YAML documents its kustomization.yaml lists (directories recursively), the
 * ConfigMaps its configMapGenerator makes, its namespace and image overrides. What the manifests use of
 * kustomize, no more.
 */
import { readFileSync } from 'node:fs'
import { basename, join, relative } from 'node:path'
import { load, loadAll } from 'js-yaml'
import { REPO_ROOT } from './run-script.js'

/** A Kubernetes object as written; read field by field. */
export interface K8sObject {
  apiVersion: string
  kind: string
  metadata: {
    name: string
    namespace?: string
    labels?: Record<string, string>
    annotations?: Record<string, string>
  }
  // biome-ignore lint/suspicious/noExplicitAny: manifests are checked field by field in tests
  spec?: any
  // biome-ignore lint/suspicious/noExplicitAny: e.g. a ConfigMap's data
  [field: string]: any
}

export interface Resource {
  /** The file it came from, relative to the repository (for messages). */
  file: string
  object: K8sObject
}

export interface Kustomization {
  /** The namespace the outermost kustomization that sets one gives every namespaced object. */
  namespace?: string
  resources: Resource[]
  /** `images` overrides of every kustomization in the tree. */
  images: { name: string; newName?: string; newTag?: string }[]
  /** Every file read: kustomization.yaml files, the manifests they list, generator inputs. */
  files: string[]
}

interface KustomizationFile {
  namespace?: string
  resources?: string[]
  configMapGenerator?: { name: string; files?: string[] }[]
  images?: { name: string; newName?: string; newTag?: string }[]
}

const repoPath = (path: string) => relative(REPO_ROOT, path)

/** The objects of `dir`'s kustomization.yaml, with the generated ConfigMaps (under their names, unhashed). */
export function loadKustomization(dir: string): Kustomization {
  const file = join(dir, 'kustomization.yaml')
  const spec = load(readFileSync(file, 'utf8')) as KustomizationFile
  const result: Kustomization = { namespace: spec.namespace, resources: [], images: [], files: [repoPath(file)] }
  for (const entry of spec.resources ?? []) {
    const path = join(dir, entry)
    if (!entry.endsWith('.yaml')) {
      const nested = loadKustomization(path)
      result.resources.push(...nested.resources)
      result.images.push(...nested.images)
      result.files.push(...nested.files)
      result.namespace ??= nested.namespace
      continue
    }
    result.files.push(repoPath(path))
    for (const object of loadAll(readFileSync(path, 'utf8')))
      if (object) result.resources.push({ file: repoPath(path), object: object as K8sObject })
  }
  for (const generator of spec.configMapGenerator ?? []) {
    const data: Record<string, string> = {}
    for (const input of generator.files ?? []) {
      data[basename(input)] = readFileSync(join(dir, input), 'utf8')
      result.files.push(repoPath(join(dir, input)))
    }
    const object = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: generator.name }, data }
    result.resources.push({ file: repoPath(file), object })
  }
  result.images.push(...(spec.images ?? []))
  if (spec.namespace) result.namespace = spec.namespace
  for (const { object } of result.resources)
    if (object.kind !== 'Namespace' && result.namespace) object.metadata.namespace = result.namespace
  return result
}

/** The one object of that kind and name; throws naming what is missing. */
export function findObject(k: Kustomization, kind: string, name: string): K8sObject {
  const found = k.resources.find((r) => r.object.kind === kind && r.object.metadata.name === name)
  if (!found) throw new Error(`no ${kind} ${name} in the manifests`)
  return found.object
}
