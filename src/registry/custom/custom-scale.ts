// /scale of a custom resource (apiextensions pkg/registry/customresource/etcd.go scaleFromCustomResource and
// setScaleSpec): replicas and selector read from the paths its CRD names, the desired replicas written back there.
import type { KubeObject } from '../../schema/meta'
import type { ScalePaths } from '../resource'

const steps = (path: string) => path.replace(/^\./, '').split('.')

function read(obj: unknown, path: string): unknown {
  let v = obj
  for (const s of steps(path)) {
    if (!v || typeof v !== 'object' || Array.isArray(v)) return undefined
    v = (v as Record<string, unknown>)[s]
  }
  return v
}

const int = (v: unknown) => (typeof v === 'number' && Number.isInteger(v) ? v : 0)

/** The Scale's spec and status of an object. */
export function customScaleParts(obj: KubeObject, paths: ScalePaths) {
  const status: Record<string, unknown> = { replicas: int(read(obj, paths.statusReplicasPath)) }
  if (paths.labelSelectorPath) {
    const selector = read(obj, paths.labelSelectorPath)
    if (typeof selector === 'string' && selector !== '') status.selector = selector
  }
  return { spec: { replicas: int(read(obj, paths.specReplicasPath)) }, status }
}

/** unstructured.SetNestedField of the desired replicas (missing maps on the way are made). */
export function setCustomReplicas(obj: KubeObject, paths: ScalePaths, replicas: number) {
  let v = obj as unknown as Record<string, unknown>
  const path = steps(paths.specReplicasPath)
  for (const s of path.slice(0, -1)) {
    if (!v[s] || typeof v[s] !== 'object' || Array.isArray(v[s])) v[s] = {}
    v = v[s] as Record<string, unknown>
  }
  v[path[path.length - 1]!] = replicas
}
