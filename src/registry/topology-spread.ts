// kube-scheduler 1.33's PodTopologySpread filter (pure): a pod's `whenUnsatisfiable: DoNotSchedule` constraints,
// each counting the pods of the pod's namespace its selector matches (labelSelector, with matchLabelKeys merged in
// from the pod's labels) per domain of its topologyKey, over the nodes the constraint's inclusion policies admit
// (nodeAffinityPolicy Honor by default: the nodes the pod's selector and required node affinity allow;
// nodeTaintsPolicy Ignore by default) that carry every constraint's key. A node is refused when placing the pod there
// would make its domain exceed the global minimum by more than maxSkew (the minimum is 0 while fewer domains than
// minDomains exist), or when it lacks a constraint's key.
import {
  type LabelSelector,
  type MetaV1LabelSelector,
  labelSelectorFromMetaV1,
  labelSelectorFromRequirements,
  newLabelRequirement,
} from './label-selector'
import { matchesAffinity, tolerates } from './node-match'
import { type AffinityVerdict, type PlacedPod, pair } from './pod-affinity'

type Obj = Record<string, any>
type Labels = Record<string, string>

export const SPREAD_CONSTRAINTS = "node(s) didn't match pod topology spread constraints"
export const SPREAD_MISSING_LABEL = `${SPREAD_CONSTRAINTS} (missing required label)`

interface Constraint {
  maxSkew: number
  topologyKey: string
  selector: LabelSelector | null
  minDomains: number
  honorAffinity: boolean
  honorTaints: boolean
}

export interface SpreadNode {
  name: string
  labels: Labels
  taints: { key: string; value?: string; effect: string }[]
}

/** The selector of a constraint: null (labels.Nothing) for none, with matchLabelKeys from the pod's labels merged. */
function constraintSelector(c: Obj, podLabels: Labels): LabelSelector | null {
  if (c.labelSelector == null) return null
  const parsed = labelSelectorFromMetaV1(c.labelSelector)
  if (!parsed.ok) return null
  const merged = [...parsed.selector.requirements]
  for (const key of (c.matchLabelKeys ?? []) as string[]) {
    if (!Object.hasOwn(podLabels, key)) continue
    const r = newLabelRequirement(key, '=', [podLabels[key]!])
    if (r.ok) merged.push(r.requirement)
  }
  return labelSelectorFromRequirements(merged)
}

/** The pod's constraints of one kind (filterTopologySpreadConstraints): DoNotSchedule to filter, ScheduleAnyway to score. */
export function spreadConstraints(
  spec: Obj | undefined,
  podLabels: Labels,
  when: 'DoNotSchedule' | 'ScheduleAnyway',
): Constraint[] {
  return ((spec?.topologySpreadConstraints ?? []) as Obj[])
    .filter((c) => c.whenUnsatisfiable === when)
    .map((c) => ({
      maxSkew: Number(c.maxSkew),
      topologyKey: String(c.topologyKey),
      selector: constraintSelector(c, podLabels),
      minDomains: c.minDomains ?? 1,
      honorAffinity: (c.nodeAffinityPolicy ?? 'Honor') === 'Honor',
      honorTaints: c.nodeTaintsPolicy === 'Honor',
    }))
}

/** PodTopologySpread's system default constraints (defaultingType System), both ScheduleAnyway. */
const SYSTEM_DEFAULTS = [
  { topologyKey: 'kubernetes.io/hostname', maxSkew: 3 },
  { topologyKey: 'topology.kubernetes.io/zone', maxSkew: 5 },
]

/** The system default constraints over a pod's default selector (default-spread-selector.ts), with default policies. */
export function systemDefaultConstraints(selector: MetaV1LabelSelector): Constraint[] {
  const parsed = labelSelectorFromMetaV1(selector)
  if (!parsed.ok) return []
  return SYSTEM_DEFAULTS.map((d) => ({
    ...d,
    selector: parsed.selector,
    minDomains: 1,
    honorAffinity: true,
    honorTaints: false,
  }))
}

/** matchNodeInclusionPolicies: the nodes a constraint's domains are made of (nodeAffinityPolicy, nodeTaintsPolicy). */
export function admitsNode(c: Constraint, spec: Obj | undefined, tolerations: Obj[], node: SpreadNode): boolean {
  if (c.honorAffinity && !matchesAffinity(spec ?? {}, node)) return false
  return !(
    c.honorTaints &&
    node.taints.some((t) => (t.effect === 'NoSchedule' || t.effect === 'NoExecute') && !tolerates(tolerations, t))
  )
}

/**
 * countPodsMatchSelector for one pod on a node: it is not terminating (kube's #87621) and the selector matches it; an
 * empty selector counts no pod (it still matches the pod itself).
 */
export const countsPod = (c: Constraint, other: PlacedPod) =>
  !other.terminating && !!c.selector && !c.selector.isEmpty() && c.selector.matches(other.labels)

/**
 * PreFilter for the pod: the filter of a node's labels its constraints make, or null when it has none to enforce.
 * `placedIn(ns)` answers the pods on nodes in the pod's namespace; terminating ones are not counted (kube's #87621).
 */
export function topologySpread(
  pod: { ns: string; labels: Labels; spec: Obj | undefined },
  nodes: readonly SpreadNode[],
  placedIn: (ns: string) => Iterable<PlacedPod>,
): ((nodeLabels: Labels) => AffinityVerdict) | null {
  const constraints = spreadConstraints(pod.spec, pod.labels, 'DoNotSchedule')
  if (constraints.length === 0) return null
  const tolerations = (pod.spec?.tolerations ?? []) as Obj[]
  // Per constraint, the eligible nodes' domains (a domain's count starts at 0 once one eligible node is in it).
  const counts = constraints.map(() => new Map<string, number>())
  const domainOf = new Map<string, (string | null)[]>()
  for (const node of nodes) {
    if (!constraints.every((c) => node.labels[c.topologyKey] !== undefined)) continue
    const domains = constraints.map((c, i) => {
      if (!admitsNode(c, pod.spec, tolerations, node)) return null
      const domain = pair(c.topologyKey, node.labels[c.topologyKey]!)
      if (!counts[i]!.has(domain)) counts[i]!.set(domain, 0)
      return domain
    })
    domainOf.set(node.name, domains)
  }
  for (const other of placedIn(pod.ns)) {
    const domains = domainOf.get(other.node)
    if (!domains) continue
    constraints.forEach((c, i) => {
      const domain = domains[i]
      if (domain != null && countsPod(c, other)) counts[i]!.set(domain, counts[i]!.get(domain)! + 1)
    })
  }
  const minimum = constraints.map((c, i) => (counts[i]!.size < c.minDomains ? 0 : Math.min(...counts[i]!.values())))
  return (nodeLabels) => {
    for (const [i, c] of constraints.entries()) {
      const value = nodeLabels[c.topologyKey]
      if (value === undefined) return { message: SPREAD_MISSING_LABEL, resolvable: false }
      const self = c.selector?.matches(pod.labels) ? 1 : 0
      if ((counts[i]!.get(pair(c.topologyKey, value)) ?? 0) + self - minimum[i]! > c.maxSkew)
        return { message: SPREAD_CONSTRAINTS, resolvable: true }
    }
    return null
  }
}
