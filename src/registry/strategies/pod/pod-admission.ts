// What the admission plugins a default cluster runs add to a pod (ServiceAccount, Priority,
// DefaultTolerationSeconds), after the scheme's defaults (./pod-defaults.ts) and the writer's managedFields.
import type { StrategyContext } from '../../strategy'
import { defaultTolerationSeconds } from './default-toleration-seconds'
import { dropEmpty, unset } from './pod-defaults'
import type { PodObject, PodSpec, Toleration } from './pod-types'
import { admitPriority } from './priority-admission'
import { admitServiceAccount, isMirrorPod } from './service-account-admission'

const NOT_READY = 'node.kubernetes.io/not-ready'
const UNREACHABLE = 'node.kubernetes.io/unreachable'
/**
 * DefaultTolerationSeconds: tolerate not-ready and unreachable nodes for the plugin's seconds (300 unless configured:
 * ./default-toleration-seconds.ts) unless the pod already does.
 */
function addDefaultTolerations(spec: PodSpec) {
  const seconds = defaultTolerationSeconds()
  const tolerations: Toleration[] = (spec.tolerations ??= [])
  const tolerates = (key: string) =>
    tolerations.some((t) => (t.key === key || unset(t.key)) && (t.effect === 'NoExecute' || unset(t.effect)))
  const notReady = tolerates(NOT_READY)
  const unreachable = tolerates(UNREACHABLE)
  if (!notReady)
    tolerations.push({
      key: NOT_READY,
      operator: 'Exists',
      effect: 'NoExecute',
      tolerationSeconds: seconds.notReady,
    })
  if (!unreachable) {
    tolerations.push({
      key: UNREACHABLE,
      operator: 'Exists',
      effect: 'NoExecute',
      tolerationSeconds: seconds.unreachable,
    })
  }
}

/**
 * What kube's admission plugins add to a pod (ServiceAccount, Priority, DefaultTolerationSeconds). It runs after the
 * writer's managedFields are recorded, so the writer does not own these fields, and on updates too, so a sparse PUT
 * (kubectl replace) compares equal to the stored pod; the API access volume and pull secrets only on a create, as
 * kube's plugin mutates pods only then (a PUT without them is refused by update validation, as in kube). Answers the
 * ServiceAccount plugin's refusal of a create whose ServiceAccount does not exist.
 */
export function admitPod(pod: PodObject, ctx: StrategyContext, old: PodObject | null): string | null {
  const spec = pod.spec
  // kube's ServiceAccount plugin leaves mirror pods alone: the kubelet deletes a mirror pod whose spec differs from
  // its static pod's (validateServiceAccount refuses one that names a service account).
  if (!isMirrorPod(pod)) {
    spec.serviceAccountName = spec.serviceAccountName || spec.serviceAccount || 'default'
    spec.serviceAccount = spec.serviceAccountName
    if (old === null) {
      const refused = admitServiceAccount(spec, ctx)
      if (refused) return refused
    }
  }
  const unprioritized = admitPriority(pod, ctx, old)
  if (unprioritized) return unprioritized
  addDefaultTolerations(spec)
  dropEmpty(spec)
  return null
}
