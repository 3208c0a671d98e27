// Pod defaulting: the scheme defaults plus what kube's admission plugins add on create (ServiceAccount, Priority,
// DefaultTolerationSeconds). Both run on every decoded body, so a sparse PUT (kubectl replace) compares equal.
import type { PodObject } from './pod-types'

type Container = Record<string, any>

const DEFAULT_TOLERATIONS = [
  { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
  { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
]

/** Always for :latest or no tag (and no digest), else IfNotPresent, as SetDefaults_Container. */
export function defaultPullPolicy(image: string | undefined): string {
  if (!image) return 'Always'
  if (image.includes('@')) return 'IfNotPresent'
  const lastSegment = image.slice(image.lastIndexOf('/') + 1)
  const colon = lastSegment.lastIndexOf(':')
  if (colon < 0) return 'Always'
  return lastSegment.slice(colon + 1) === 'latest' ? 'Always' : 'IfNotPresent'
}

function defaultContainer(c: Container) {
  c.imagePullPolicy ??= defaultPullPolicy(c.image)
  c.terminationMessagePath ??= '/dev/termination-log'
  c.terminationMessagePolicy ??= 'File'
  c.resources ??= {}
  for (const p of c.ports ?? []) p.protocol ??= 'TCP'
  for (const probe of [c.livenessProbe, c.readinessProbe, c.startupProbe]) {
    if (!probe) continue
    probe.timeoutSeconds ??= 1
    probe.periodSeconds ??= 10
    probe.successThreshold ??= 1
    probe.failureThreshold ??= 3
    if (probe.httpGet) probe.httpGet.scheme ??= 'HTTP'
  }
  for (const e of c.env ?? []) {
    if (e.valueFrom?.fieldRef) e.valueFrom.fieldRef.apiVersion ??= 'v1'
  }
  // Copy limits to requests where requests are unset, as SetDefaults_Pod does.
  const limits = c.resources.limits as Record<string, unknown> | undefined
  if (limits && Object.keys(limits).length > 0) {
    c.resources.requests ??= {}
    for (const [k, v] of Object.entries(limits)) c.resources.requests[k] ??= v
  }
}

export function applyPodDefaults(pod: PodObject) {
  const spec = (pod.spec ??= {})
  spec.restartPolicy ??= 'Always'
  spec.terminationGracePeriodSeconds ??= 30
  spec.dnsPolicy ??= 'ClusterFirst'
  spec.securityContext ??= {}
  spec.schedulerName ??= 'default-scheduler'
  spec.enableServiceLinks ??= true
  // ServiceAccount admission.
  spec.serviceAccountName ??= spec.serviceAccount ?? 'default'
  spec.serviceAccount ??= spec.serviceAccountName
  // Priority admission.
  spec.priority ??= 0
  spec.preemptionPolicy ??= 'PreemptLowerPriority'
  // DefaultTolerationSeconds admission: only for keys the pod does not already tolerate.
  const tolerations = (spec.tolerations ??= []) as { key?: string; effect?: string; operator?: string }[]
  for (const t of DEFAULT_TOLERATIONS) {
    const covered = tolerations.some(
      (x) => (x.key === t.key || (x.key === undefined && x.operator === 'Exists')) && (x.effect === undefined || x.effect === t.effect),
    )
    if (!covered) tolerations.push({ ...t })
  }
  for (const c of spec.containers ?? []) defaultContainer(c)
  for (const c of spec.initContainers ?? []) defaultContainer(c)
  for (const c of spec.ephemeralContainers ?? []) {
    c.imagePullPolicy ??= defaultPullPolicy(c.image)
    c.terminationMessagePath ??= '/dev/termination-log'
    c.terminationMessagePolicy ??= 'File'
  }
  for (const v of spec.volumes ?? []) {
    if (v.secret) v.secret.defaultMode ??= 420
    if (v.configMap) v.configMap.defaultMode ??= 420
    if (v.projected) v.projected.defaultMode ??= 420
    if (v.downwardAPI) v.downwardAPI.defaultMode ??= 420
    if (v.hostPath) v.hostPath.type ??= ''
    if (v.emptyDir && Object.keys(v.emptyDir).length === 0) v.emptyDir = {}
  }
  if (spec.hostNetwork) {
    for (const c of spec.containers ?? []) for (const p of c.ports ?? []) p.hostPort ??= p.containerPort
  }
}

type Quantities = Record<string, string | number> | undefined

/** QoS class from requests and limits (qos.GetPodQOS), over regular and init containers. */
export function podQOS(pod: PodObject, parseQuantity: (q: string | number) => number | null): string {
  const all = [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])] as Container[]
  let anyRequestOrLimit = false
  let guaranteed = true
  const supported = ['cpu', 'memory']
  for (const c of all) {
    const req = c.resources?.requests as Quantities
    const lim = c.resources?.limits as Quantities
    for (const r of supported) {
      const rq = req?.[r] !== undefined ? parseQuantity(req[r]!) : null
      const lm = lim?.[r] !== undefined ? parseQuantity(lim[r]!) : null
      if ((rq !== null && rq !== 0) || (lm !== null && lm !== 0)) anyRequestOrLimit = true
      if (lm === null || lm === 0) guaranteed = false
      else if (rq !== null && rq !== lm) guaranteed = false
    }
  }
  if (!anyRequestOrLimit) return 'BestEffort'
  return guaranteed ? 'Guaranteed' : 'Burstable'
}
