// What the admission plugins a default cluster runs add to a pod (ServiceAccount, Priority,
// DefaultTolerationSeconds), after the scheme's defaults (./pod-defaults.ts) and the writer's managedFields.
import type { KubeObject } from '../../../schema/meta'
import type { StrategyContext } from '../../strategy'
import { defaultTolerationSeconds } from './default-toleration-seconds'
import { dropEmpty, unset } from './pod-defaults'
import { MIRROR_POD_ANNOTATION } from './pod-validation-annotations'
import type { PodObject, PodSpec, Toleration } from './pod-types'
import { mountServiceAccountToken } from './service-account-token-volume'

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

/** The built-in PriorityClasses; any other class name resolves to the global default, 0, here. */
const SYSTEM_PRIORITIES: Record<string, number> = {
  'system-node-critical': 2000001000,
  'system-cluster-critical': 2000000000,
}

type ServiceAccountLike = KubeObject & {
  automountServiceAccountToken?: boolean
  imagePullSecrets?: { name?: string }[]
}

/**
 * The ServiceAccount plugin's mutations on a create: the API access volume unless the pod, else its ServiceAccount,
 * says `automountServiceAccountToken: false` (shouldAutomount), and the ServiceAccount's imagePullSecrets when the pod
 * names none. kube refuses a pod whose ServiceAccount does not exist; this server admits it (the token volume then
 * waits on the node until the ServiceAccount exists, as a TokenRequest for it fails), so that pods of a namespace
 * created a moment ago are not refused while its `default` ServiceAccount is being made.
 */
function admitServiceAccount(spec: PodSpec, ctx: StrategyContext) {
  const sa = (ctx.lookup?.('serviceaccounts', spec.serviceAccountName ?? '') ?? null) as ServiceAccountLike | null
  const automount = spec.automountServiceAccountToken ?? sa?.automountServiceAccountToken ?? true
  if (automount) mountServiceAccountToken(spec)
  if (!spec.imagePullSecrets?.length && sa?.imagePullSecrets?.length)
    spec.imagePullSecrets = sa.imagePullSecrets.map((s) => ({ name: s.name }))
}

/**
 * What kube's admission plugins add to a pod (ServiceAccount, Priority, DefaultTolerationSeconds). It runs after the
 * writer's managedFields are recorded, so the writer does not own these fields, and on updates too, so a sparse PUT
 * (kubectl replace) compares equal to the stored pod; the API access volume and pull secrets only on a create, as
 * kube's plugin mutates pods only then (a PUT without them is refused by update validation, as in kube).
 */
export function admitPod(pod: PodObject, ctx: StrategyContext, old: PodObject | null) {
  const spec = pod.spec
  // kube's ServiceAccount plugin leaves mirror pods alone: the kubelet deletes a mirror pod whose spec differs from
  // its static pod's, and NodeRestriction refuses one that names a service account.
  if (pod.metadata?.annotations?.[MIRROR_POD_ANNOTATION] === undefined) {
    spec.serviceAccountName = spec.serviceAccountName || spec.serviceAccount || 'default'
    spec.serviceAccount = spec.serviceAccountName
    if (old === null) admitServiceAccount(spec, ctx)
  }
  spec.priority ??= SYSTEM_PRIORITIES[spec.priorityClassName ?? ''] ?? 0
  spec.preemptionPolicy ??= 'PreemptLowerPriority'
  addDefaultTolerations(spec)
  dropEmpty(spec)
}
