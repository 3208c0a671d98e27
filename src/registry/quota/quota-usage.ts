// What an object charges against a quota, as kube 1.33's evaluators measure it (pkg/quota/v1/evaluator/core: pods,
// services, persistentvolumeclaims; pkg/quota/v1/generic: `count/<resource>.<group>` for every other kind), which quota
// resources each kind can be charged for (MatchingResources), whether a quota's scopes select an object, and the pod
// constraint that a quota on cpu or memory makes every container state it.
import type { KubeObject } from '../../schema/meta'
import { parseQuantity, type ParsedQuantity } from '../../schema/quantity'
import type { ResourceQuota } from '../../schema/resource-quota'
import { compareUtf8 } from '../go-strings'
import { podQOS } from '../strategies/pod/pod-qos'
import type { PodObject } from '../strategies/pod/pod-types'
import { addQuantities, cmpQuantity, ZERO } from '../strategies/pod/pod-validation-quantities'

export type Usage = Map<string, ParsedQuantity>

const ONE: ParsedQuantity = { mantissa: 1n, exponent: 0, format: 'DecimalSI' }
const q = (v: string | number | undefined): ParsedQuantity | null => (v === undefined ? null : parseQuantity(v))

/** generic.ObjectCountQuotaResourceNameFor: `count/<resource>` in the core group, `count/<resource>.<group>` else. */
const objectCountName = (resource: string, group: string) =>
  group ? `count/${resource}.${group}` : `count/${resource}`

/** The core kinds kube counts under a bare name too (the legacy object count quotas). */
const LEGACY_COUNTS: Record<string, string> = {
  configmaps: 'configmaps',
  resourcequotas: 'resourcequotas',
  replicationcontrollers: 'replicationcontrollers',
  secrets: 'secrets',
}

const STORAGE_CLASS_SUFFIX = '.storageclass.storage.k8s.io/'
const POD_RESOURCES = new Set([
  'count/pods',
  'cpu',
  'memory',
  'ephemeral-storage',
  'requests.cpu',
  'requests.memory',
  'requests.ephemeral-storage',
  'limits.cpu',
  'limits.memory',
  'limits.ephemeral-storage',
  'pods',
])
const SERVICE_RESOURCES = new Set(['count/services', 'services', 'services.loadbalancers', 'services.nodeports'])
const PVC_RESOURCES = new Set(['count/persistentvolumeclaims', 'persistentvolumeclaims', 'requests.storage'])

/** The quota resources (of `hard`) objects of this kind are charged for: the evaluator's MatchingResources. */
export function matchingResources(resource: string, group: string, hard: string[]): string[] {
  // The pod evaluator: its resources, those with a hugepages prefix (bare or requests.), and extended resources
  // (isExtendedResourceNameForQuota: `requests.` and not native, so never a `kubernetes.io/` name).
  if (group === '' && resource === 'pods')
    return hard.filter(
      (n) =>
        POD_RESOURCES.has(n) ||
        n.startsWith('hugepages-') ||
        n.startsWith('requests.hugepages-') ||
        (n.startsWith('requests.') && n.includes('/') && !n.includes('kubernetes.io/')),
    )
  if (group === '' && resource === 'services') return hard.filter((n) => SERVICE_RESOURCES.has(n))
  if (group === '' && resource === 'persistentvolumeclaims')
    return hard.filter(
      (n) =>
        PVC_RESOURCES.has(n) ||
        (n.includes(STORAGE_CLASS_SUFFIX) &&
          (n.endsWith('/persistentvolumeclaims') || n.endsWith('/requests.storage'))),
    )
  const count = objectCountName(resource, group)
  return hard.filter((n) => n === count || (group === '' && LEGACY_COUNTS[resource] === n))
}

function add(into: Usage, name: string, value: ParsedQuantity) {
  const had = into.get(name)
  into.set(name, had ? addQuantities(had, value) : value)
}
const maxInto = (into: Usage, from: Usage) => {
  for (const [k, v] of from) if (!into.has(k) || cmpQuantity(v, into.get(k)!) > 0) into.set(k, v)
}
function listOf(list: Record<string, string | number> | undefined): Usage {
  const out: Usage = new Map()
  for (const [k, v] of Object.entries(list ?? {})) {
    const parsed = q(v)
    if (parsed) out.set(k, parsed)
  }
  return out
}

/**
 * resourcehelper.PodRequests / PodLimits: containers summed, sidecars added, init containers as a floor, and the
 * overhead (which the LimitRanger's own copy of them leaves out).
 */
export function podTotals(pod: PodObject, which: 'requests' | 'limits', overhead = true): Usage {
  const total: Usage = new Map()
  for (const c of pod.spec?.containers ?? []) for (const [k, v] of listOf(c.resources?.[which])) add(total, k, v)
  const sidecars: Usage = new Map()
  const initMax: Usage = new Map()
  for (const c of pod.spec?.initContainers ?? []) {
    const own = listOf(c.resources?.[which])
    if (c.restartPolicy === 'Always') {
      for (const [k, v] of own) {
        add(total, k, v)
        add(sidecars, k, v)
      }
      maxInto(initMax, sidecars)
    } else {
      const tmp: Usage = new Map(own)
      for (const [k, v] of sidecars) add(tmp, k, v)
      maxInto(initMax, tmp)
    }
  }
  maxInto(total, initMax)
  if (overhead) for (const [k, v] of listOf(pod.spec?.overhead as Record<string, string> | undefined)) add(total, k, v)
  return total
}

/** podComputeUsageHelper. */
function computeUsage(requests: Usage, limits: Usage): Usage {
  const out: Usage = new Map([['pods', ONE]])
  for (const r of ['cpu', 'memory', 'ephemeral-storage']) {
    const req = requests.get(r)
    if (req) {
      out.set(r, req)
      out.set(`requests.${r}`, req)
    }
    const lim = limits.get(r)
    if (lim) out.set(`limits.${r}`, lim)
  }
  for (const [k, v] of requests) {
    if (k.startsWith('hugepages-')) {
      out.set(k, v)
      out.set(`requests.${k}`, v)
    } else if (k.includes('/') && !k.includes('kubernetes.io/')) out.set(`requests.${k}`, v)
  }
  return out
}

/**
 * QuotaV1Pod: whether a pod's compute resources count. Terminal pods do not, nor pods whose deletion's grace period
 * has run out (a lost node's pods stuck terminating must not hold their namespace's quota).
 */
function podCounts(pod: PodObject, now: Date): boolean {
  if (pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed') return false
  const at = pod.metadata?.deletionTimestamp
  const grace = pod.metadata?.deletionGracePeriodSeconds
  if (at && grace !== undefined && grace !== null && now.getTime() > Date.parse(at) + Number(grace) * 1000) return false
  return true
}

/** What one object charges (the evaluator's Usage). */
export function usageOf(resource: string, group: string, obj: KubeObject, now: Date): Usage {
  const out: Usage = new Map([[objectCountName(resource, group), ONE]])
  if (group !== '') return out
  if (LEGACY_COUNTS[resource]) out.set(LEGACY_COUNTS[resource]!, ONE)
  if (resource === 'pods') {
    const pod = obj as PodObject
    if (!podCounts(pod, now)) return out
    for (const [k, v] of computeUsage(podTotals(pod, 'requests'), podTotals(pod, 'limits'))) out.set(k, v)
  } else if (resource === 'services') serviceUsage(obj, out)
  else if (resource === 'persistentvolumeclaims') claimUsage(obj, out)
  return out
}

type ServiceLike = {
  spec?: { type?: string; ports?: { nodePort?: number }[]; allocateLoadBalancerNodePorts?: boolean }
}

function serviceUsage(obj: KubeObject, out: Usage) {
  const spec = (obj as ServiceLike).spec ?? {}
  const ports = spec.ports ?? []
  out.set('services', ONE)
  out.set('services.loadbalancers', ZERO)
  out.set('services.nodeports', ZERO)
  const n = (count: number): ParsedQuantity => ({ mantissa: BigInt(count), exponent: 0, format: 'DecimalSI' })
  if (spec.type === 'NodePort') out.set('services.nodeports', n(ports.length))
  if (spec.type === 'LoadBalancer') {
    // Node ports are not allocated yet at admission: count the intent.
    const explicit = spec.allocateLoadBalancerNodePorts === false
    out.set('services.nodeports', n(explicit ? ports.filter((p) => p.nodePort).length : ports.length))
    out.set('services.loadbalancers', ONE)
  }
}

type ClaimLike = {
  spec?: { storageClassName?: string; resources?: { requests?: Record<string, string> } }
  metadata?: { annotations?: Record<string, string> }
  status?: { allocatedResources?: Record<string, string> }
}

function claimUsage(obj: KubeObject, out: Usage) {
  const pvc = obj as ClaimLike
  out.set('persistentvolumeclaims', ONE)
  // storagehelpers.GetPersistentVolumeClaimClass: the beta annotation wins over the field.
  const cls = pvc.metadata?.annotations?.['volume.beta.kubernetes.io/storage-class'] ?? pvc.spec?.storageClassName ?? ''
  if (cls) out.set(`${cls}${STORAGE_CLASS_SUFFIX}persistentvolumeclaims`, ONE)
  const requested = q(pvc.spec?.resources?.requests?.storage)
  const allocated = q(pvc.status?.allocatedResources?.storage)
  const storage =
    requested && allocated ? (cmpQuantity(allocated, requested) > 0 ? allocated : requested) : (requested ?? allocated)
  if (storage) {
    out.set('requests.storage', storage)
    if (cls) out.set(`${cls}${STORAGE_CLASS_SUFFIX}requests.storage`, storage)
  }
}

type Selector = { scopeName?: string; operator?: string; values?: string[] }

/** getScopeSelectorsFromQuota: the scopes as Exists requirements, then the selector's expressions. */
export const scopeSelectorsOf = (rq: ResourceQuota): Selector[] => [
  ...(rq.spec?.scopes ?? []).map((s) => ({ scopeName: s, operator: 'Exists' })),
  ...(rq.spec?.scopeSelector?.matchExpressions ?? []),
]

/** podMatchesScopeFunc; other kinds match no scope (MatchesNoScopeFunc), so a scoped quota never charges them. */
function matchesScope(sel: Selector, resource: string, group: string, obj: KubeObject): boolean {
  if (group !== '' || resource !== 'pods') return false
  const pod = obj as PodObject
  const spec = pod.spec ?? {}
  switch (sel.scopeName) {
    case 'Terminating':
      return spec.activeDeadlineSeconds != null && spec.activeDeadlineSeconds >= 0
    case 'NotTerminating':
      return !(spec.activeDeadlineSeconds != null && spec.activeDeadlineSeconds >= 0)
    case 'BestEffort':
      return podQOS(pod) === 'BestEffort'
    case 'NotBestEffort':
      return podQOS(pod) !== 'BestEffort'
    case 'PriorityClass': {
      const cls = spec.priorityClassName ?? ''
      switch (sel.operator) {
        case 'Exists':
          return cls !== ''
        case 'DoesNotExist':
          return cls === ''
        case 'In':
          return cls !== '' && (sel.values ?? []).includes(cls)
        case 'NotIn':
          return cls === '' || !(sel.values ?? []).includes(cls)
      }
      return false
    }
    case 'CrossNamespacePodAffinity':
      return usesCrossNamespaceAffinity(pod)
  }
  return false
}

type Term = { namespaces?: string[]; namespaceSelector?: unknown }
function usesCrossNamespaceAffinity(pod: PodObject): boolean {
  const a = (pod.spec as { affinity?: Record<string, Record<string, unknown[]>> } | undefined)?.affinity
  const terms = (kind: string): Term[] => {
    const k = a?.[kind]
    if (!k) return []
    const required = (k.requiredDuringSchedulingIgnoredDuringExecution ?? []) as Term[]
    const preferred = ((k.preferredDuringSchedulingIgnoredDuringExecution ?? []) as { podAffinityTerm?: Term }[]).map(
      (p) => p.podAffinityTerm ?? {},
    )
    return [...required, ...preferred]
  }
  return [...terms('podAffinity'), ...terms('podAntiAffinity')].some(
    (t) => (t.namespaces?.length ?? 0) > 0 || t.namespaceSelector != null,
  )
}

/** generic.Matches: the quota names a resource this kind is charged for, and every scope selects the object. */
export function quotaMatches(rq: ResourceQuota, hard: string[], resource: string, group: string, obj: KubeObject) {
  if (matchingResources(resource, group, hard).length === 0) return false
  return scopeSelectorsOf(rq).every((s) => matchesScope(s, resource, group, obj))
}

const VALIDATION_SET = new Set(['cpu', 'memory', 'requests.cpu', 'requests.memory', 'limits.cpu', 'limits.memory'])

/**
 * The pod evaluator's Constraints: a quota on cpu or memory (requests or limits) makes every container and init
 * container state that resource. Answers kube's `must specify <resource> for: <containers>; ...`, or null.
 */
export function podConstraints(pod: PodObject, required: string[]): string | null {
  const wanted = required.filter((r) => VALIDATION_SET.has(r))
  if (wanted.length === 0) return null
  const missing = new Map<string, Set<string>>()
  for (const c of [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])]) {
    const has = computeUsage(listOf(c.resources?.requests), listOf(c.resources?.limits))
    for (const r of wanted) if (!has.has(r)) missing.set(r, (missing.get(r) ?? new Set()).add(c.name ?? ''))
  }
  if (missing.size === 0) return null
  const parts = [...missing.keys()]
    .sort(compareUtf8)
    .map((r) => `${r} for: ${[...missing.get(r)!].sort(compareUtf8).join(',')}`)
  return `must specify ${parts.join('; ')}`
}
