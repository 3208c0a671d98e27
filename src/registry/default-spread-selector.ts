// kube-scheduler's helper.DefaultSelector (pure): the selector of PodTopologySpread's system default constraints, for
// a pod with no constraints of its own. It merges the selectors of the Services in the pod's namespace that select
// the pod with its controller's: a ReplicationController's selector, or a ReplicaSet's or StatefulSet's requirements,
// the controller found by name as kube's listers find it. Answered as a metav1.LabelSelector (it travels to the
// cluster object with the pod), or null when it would select everything (then kube scores no default spreading).
import { labelSelectorFromMatchLabels, type MetaV1LabelSelector } from './label-selector'

type Obj = Record<string, any>

type ControllerResource = 'replicationcontrollers' | 'replicasets' | 'statefulsets'

/** What the selector is made from: the namespace's Services, and a controller by resource and name. */
export interface SelectingObjects {
  services(): readonly Obj[]
  controller(resource: ControllerResource, name: string): Obj | null
}

/** The controller kinds kube looks at, by apiVersion and kind (other groups or versions are not looked up). */
const CONTROLLERS: Record<string, ControllerResource> = {
  'v1 ReplicationController': 'replicationcontrollers',
  'apps/v1 ReplicaSet': 'replicasets',
  'apps/v1 StatefulSet': 'statefulsets',
}

export function defaultSpreadSelector(pod: Obj, objects: SelectingObjects): MetaV1LabelSelector | null {
  const labels = (pod.metadata?.labels ?? {}) as Record<string, string>
  // Services, RCs, RSs and StatefulSets that match the pod agree on the labels they name, so merging is safe.
  const matchLabels: Record<string, string> = {}
  const matchExpressions: NonNullable<MetaV1LabelSelector['matchExpressions']> = []
  for (const service of objects.services()) {
    // A nil selector selects nothing (kube's GetPodServices), an empty one everything.
    const selector = service.spec?.selector as Record<string, string> | null | undefined
    if (selector != null && labelSelectorFromMatchLabels(selector).matches(labels)) Object.assign(matchLabels, selector)
  }
  const owner = ((pod.metadata?.ownerReferences ?? []) as Obj[]).find((r) => r.controller === true)
  const resource = owner ? CONTROLLERS[`${owner.apiVersion} ${owner.kind}`] : undefined
  const controller = resource ? objects.controller(resource, String(owner!.name)) : null
  if (controller && resource === 'replicationcontrollers') Object.assign(matchLabels, controller.spec?.selector ?? {})
  else if (controller?.spec?.selector) {
    const selector = controller.spec.selector as MetaV1LabelSelector
    Object.assign(matchLabels, selector.matchLabels ?? {})
    matchExpressions.push(...(selector.matchExpressions ?? []))
  }
  if (Object.keys(matchLabels).length === 0 && matchExpressions.length === 0) return null
  return { matchLabels, ...(matchExpressions.length > 0 ? { matchExpressions } : {}) }
}
