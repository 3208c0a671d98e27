// pods/binding: assigning a pod to a node, as kube's BindingREST does it (assignPod): a conflict when the pod is being
// deleted or already bound, else spec.nodeName, the binding's annotations and PodScheduled=True. It is planned as an
// update through a row whose strategy validates nothing, because kube writes it straight to storage (no update
// validation, no managedFields entry).
import { clone } from './deep-equal'
import { scheduledCondition, setConditions } from './pod-lifecycle'
import type { ResourceDef } from './resource'
import { fail, ok, statuses, type Result } from './status'
import type { KubeObject } from '../schema/meta'

type Pod = KubeObject & { spec?: { nodeName?: string }; status?: { conditions?: Record<string, unknown>[] } }

/** The pod bound to `node` (a copy), or kube's 409 for a pod that cannot be bound. */
export function bindPod(
  current: KubeObject,
  node: string,
  annotations: Record<string, string> | undefined,
  now: Date,
): Result<KubeObject> {
  const pod = current as Pod
  const name = pod.metadata.name ?? ''
  const res = { resource: 'pods/binding' }
  if (pod.metadata.deletionTimestamp)
    return fail(statuses.conflict(res, name, `pod ${name} is being deleted, cannot be assigned to a host`))
  if (pod.spec?.nodeName)
    return fail(
      statuses.conflict(res, name, `pod ${name} is already assigned to node ${JSON.stringify(pod.spec.nodeName)}`),
    )
  const next = clone(pod)
  next.spec = { ...next.spec, nodeName: node }
  if (annotations && Object.keys(annotations).length > 0)
    next.metadata.annotations = { ...next.metadata.annotations, ...annotations }
  next.status = { ...next.status, conditions: setConditions(next.status?.conditions, [scheduledCondition(now)]) }
  return ok(next)
}

const cache = new WeakMap<ResourceDef, ResourceDef>()

/** The pods row as a binding writes it: the bound object as given, nothing validated. */
export function bindingDefOf(def: ResourceDef): ResourceDef | undefined {
  if (def.plural !== 'pods') return undefined
  let found = cache.get(def)
  if (!found) {
    found = {
      ...def,
      strategy: { ...def.strategy, prepareForUpdate: () => undefined, validateUpdate: () => [], admit: undefined },
    }
    cache.set(def, found)
  }
  return found
}
