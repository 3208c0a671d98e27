// What the namespace tells the cluster's scheduler of a pod: its key, spec and labels, and for a placement the
// selector of kube's system default spreading (the namespace holds the Services and controllers that make it).
import type { ScheduleRequest } from '../cluster/cluster-api'
import type { ControllerHost } from '../host/controller'
import { defaultSpreadSelector, type SelectingObjects } from '../registry/default-spread-selector'
import type { KubeObject } from '../schema/meta'

type Obj = Record<string, any>

export const podKey = (pod: KubeObject) => `${pod.metadata.namespace}/${pod.metadata.name}/${pod.metadata.uid}`

/** What the cluster's scheduler is told of a pod: its key, spec and labels. */
export const scheduleRequest = (host: ControllerHost, pod: KubeObject): ScheduleRequest => ({
  podKey: podKey(pod),
  ns: host.scope,
  spec: (pod as Obj).spec,
  ...(pod.metadata.labels ? { labels: pod.metadata.labels } : {}),
})

/**
 * What default spreading reads for a batch of placements, each read once per batch: the namespace's Services, and
 * each controller asked for (a ReplicaSet's replicas name the same one).
 */
export function batchLookups(host: ControllerHost): SelectingObjects {
  let services: Obj[] | undefined
  const controllers = new Map<string, Obj | null>()
  return {
    services: () => (services ??= host.all('services').map((s) => s.object)),
    controller: (resource, name) => {
      const key = `${resource}/${name}`
      if (!controllers.has(key)) controllers.set(key, host.get(resource, name)?.object ?? null)
      return controllers.get(key)!
    },
  }
}

/**
 * scheduleRequest for a placement: a pod with no spread constraints of its own also carries the selector of kube's
 * system default spreading.
 */
export function placementRequest(host: ControllerHost, pod: KubeObject, lookups: SelectingObjects): ScheduleRequest {
  const req = scheduleRequest(host, pod)
  if (((pod as Obj).spec?.topologySpreadConstraints ?? []).length > 0) return req
  const selector = defaultSpreadSelector(pod, lookups)
  return selector ? { ...req, defaultSpreadSelector: selector } : req
}
