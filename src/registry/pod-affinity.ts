// kube-scheduler 1.33's InterPodAffinity plugin (pure). Its filter: a pod's required pod affinity and anti-affinity
// terms, and the required anti-affinity terms of the pods already on nodes, counted per topology pair (a topologyKey
// and the value a node has for it) as the plugin's PreFilter counts them, then judged per node in its Filter's order:
// the pod's affinity (UnschedulableAndUnresolvable), its anti-affinity, the existing pods' anti-affinity (both
// Unschedulable). Its score: the preferred terms' weights per topology pair, as its PreScore adds them.
import { type LabelSelector, labelSelectorFromMetaV1 } from './label-selector'

type Obj = Record<string, any>
type Labels = Record<string, string>

/** framework.AffinityTerm: namespaces by name or by a selector over their labels, then pods by their labels. */
interface AffinityTerm {
  namespaces: ReadonlySet<string>
  /** Null for a term without a namespaceSelector (labels.Nothing): no namespace labels need reading. */
  nsSelector: LabelSelector | null
  selector: LabelSelector
  topologyKey: string
}

/** A pod as the plugin sees it: its namespace and labels. */
interface AffinityPod {
  ns: string
  labels: Labels
}

export interface PlacedPod extends AffinityPod {
  node: string
  /** It has a deletionTimestamp (PodTopologySpread does not count it). */
  terminating?: boolean
}

export const AFFINITY_RULES = "node(s) didn't match pod affinity rules"
export const ANTI_AFFINITY_RULES = "node(s) didn't match pod anti-affinity rules"
export const EXISTING_ANTI_AFFINITY_RULES = "node(s) didn't satisfy existing pods anti-affinity rules"

/**
 * newAffinityTerm for each required term (in `list`, a pod spec's terms): a term naming no namespaces and no selector
 * means the pod's own namespace; a null namespaceSelector selects none, `{}` every one. A term whose selector does not
 * parse (validation refuses those) is left out.
 */
function affinityTerms(ns: string, list: readonly Obj[] | undefined): AffinityTerm[] {
  const terms: AffinityTerm[] = []
  for (const t of list ?? []) {
    const selector = labelSelectorFromMetaV1(t.labelSelector)
    const nsSelector = labelSelectorFromMetaV1(t.namespaceSelector)
    if (!selector.ok || !nsSelector.ok) continue
    const names = (t.namespaces ?? []) as string[]
    const namespaces = new Set(names.length === 0 && t.namespaceSelector == null ? [ns] : names)
    terms.push({
      namespaces,
      nsSelector: t.namespaceSelector == null ? null : nsSelector.selector,
      selector: selector.selector,
      topologyKey: t.topologyKey,
    })
  }
  return terms
}

/** A preferred term and its weight (framework.WeightedAffinityTerm). */
interface WeightedTerm {
  term: AffinityTerm
  weight: number
}

/** A pod's affinity terms of every kind, as the scheduler's PodInfo keeps them. */
export interface PodTerms {
  requiredAffinity: AffinityTerm[]
  requiredAnti: AffinityTerm[]
  preferredAffinity: WeightedTerm[]
  preferredAnti: WeightedTerm[]
}

/** The part of a pod's `spec.affinity` this plugin reads (its podAffinity and podAntiAffinity), or {} for none. */
export function podAffinityOf(affinity: Obj | undefined): Obj {
  const { podAffinity, podAntiAffinity } = affinity ?? {}
  return { ...(podAffinity ? { podAffinity } : {}), ...(podAntiAffinity ? { podAntiAffinity } : {}) }
}

/** Every affinity term of a pod's `spec.affinity` (its podAffinity and podAntiAffinity). */
export function podTerms(ns: string, affinity: Obj | undefined): PodTerms {
  const required = 'requiredDuringSchedulingIgnoredDuringExecution'
  const weighted = (list: Obj[] | undefined): WeightedTerm[] =>
    (list ?? []).flatMap((w) =>
      affinityTerms(ns, [w.podAffinityTerm ?? {}]).map((term) => ({ term, weight: w.weight })),
    )
  return {
    requiredAffinity: affinityTerms(ns, affinity?.podAffinity?.[required]),
    requiredAnti: affinityTerms(ns, affinity?.podAntiAffinity?.[required]),
    preferredAffinity: weighted(affinity?.podAffinity?.preferredDuringSchedulingIgnoredDuringExecution),
    preferredAnti: weighted(affinity?.podAntiAffinity?.preferredDuringSchedulingIgnoredDuringExecution),
  }
}

/** AffinityTerm.Matches: the pod is in one of the term's namespaces (by name or labels) and has matching labels. */
function termMatches(term: AffinityTerm, pod: AffinityPod, nsLabels: (ns: string) => Labels | undefined) {
  const inNamespace = term.namespaces.has(pod.ns) || (term.nsSelector?.matches(nsLabels(pod.ns) ?? {}) ?? false)
  return inNamespace && term.selector.matches(pod.labels)
}

/** Counts per topology pair (`key\u0000value`). */
type Counts = Map<string, number>
/** A topology pair's map key. */
export const pair = (key: string, value: string) => `${key}\u0000${value}`
const add = (counts: Counts, key: string, nodeLabels: Labels | undefined) => {
  const value = nodeLabels?.[key]
  if (value !== undefined) counts.set(pair(key, value), (counts.get(pair(key, value)) ?? 0) + 1)
}

interface AffinityWorld {
  /** A node's labels (undefined: no such node). */
  nodeLabels(node: string): Labels | undefined
  nsLabels(ns: string): Labels | undefined
  /** The pods on nodes (kube's NodeInfo.Pods of every node), asked for only when the pod has terms of its own. */
  placedPods(): Iterable<PlacedPod>
  /** The placed pods with affinity terms of any kind (NodeInfo.PodsWithAffinity). */
  affinityPods(): Iterable<PlacedPod & { terms: PodTerms }>
}

/** Why a node is refused, and whether preemption could help it (Unschedulable) or not (UnschedulableAndUnresolvable). */
export type AffinityVerdict = { message: string; resolvable: boolean } | null

/**
 * PreFilter for `pod`: the counts its Filter reads, as a function of a node's labels; null when the plugin skips the
 * pod (no terms of its own and no existing pod's anti-affinity against it).
 */
export function interPodAffinity(
  pod: AffinityPod & { terms: PodTerms },
  world: AffinityWorld,
): ((nodeLabels: Labels) => AffinityVerdict) | null {
  const { requiredAffinity: affinity, requiredAnti: anti } = pod.terms
  const existing: Counts = new Map()
  for (const other of world.affinityPods())
    for (const term of other.terms.requiredAnti)
      if (termMatches(term, pod, world.nsLabels)) add(existing, term.topologyKey, world.nodeLabels(other.node))
  if (existing.size === 0 && affinity.length === 0 && anti.length === 0) return null

  const affinityCounts: Counts = new Map()
  const antiCounts: Counts = new Map()
  if (affinity.length > 0 || anti.length > 0)
    for (const other of world.placedPods()) {
      const labels = world.nodeLabels(other.node)
      if (affinity.length > 0 && affinity.every((t) => termMatches(t, other, world.nsLabels)))
        for (const t of affinity) add(affinityCounts, t.topologyKey, labels)
      for (const t of anti) if (termMatches(t, other, world.nsLabels)) add(antiCounts, t.topologyKey, labels)
    }
  // The first pod of a group with affinity to itself: nothing matches anywhere yet, and it matches its own terms.
  const selfAffine = affinityCounts.size === 0 && affinity.every((t) => termMatches(t, pod, world.nsLabels))

  return (nodeLabels) => {
    let podsExist = true
    for (const t of affinity) {
      const value = nodeLabels[t.topologyKey]
      if (value === undefined) return { message: AFFINITY_RULES, resolvable: false }
      if (!((affinityCounts.get(pair(t.topologyKey, value)) ?? 0) > 0)) podsExist = false
    }
    if (!podsExist && !selfAffine) return { message: AFFINITY_RULES, resolvable: false }
    for (const t of anti) {
      const value = nodeLabels[t.topologyKey]
      if (value !== undefined && (antiCounts.get(pair(t.topologyKey, value)) ?? 0) > 0)
        return { message: ANTI_AFFINITY_RULES, resolvable: true }
    }
    if (existing.size > 0)
      for (const [key, value] of Object.entries(nodeLabels))
        if ((existing.get(pair(key, value)) ?? 0) > 0)
          return { message: EXISTING_ANTI_AFFINITY_RULES, resolvable: true }
    return null
  }
}

/** InterPodAffinity's default hardPodAffinityWeight: an existing pod's required affinity counts this much. */
const HARD_POD_AFFINITY_WEIGHT = 1

/**
 * InterPodAffinity's PreScore: per topology pair, the weights of the incoming pod's preferred terms its placed pods
 * match (anti-affinity negative), and of the placed pods' required affinity (hardPodAffinityWeight) and preferred terms
 * the incoming pod matches; a node scores the sum over the pairs its labels hold. Null when no term applies anywhere.
 */
export function preferredAffinityScore(
  pod: AffinityPod & { terms: PodTerms },
  world: AffinityWorld,
): ((nodeLabels: Labels) => number) | null {
  const scores: Counts = new Map()
  const addTo = (term: AffinityTerm, weight: number, matched: AffinityPod, node: string) => {
    const value = world.nodeLabels(node)?.[term.topologyKey]
    if (value === undefined || !termMatches(term, matched, world.nsLabels)) return
    const key = pair(term.topologyKey, value)
    scores.set(key, (scores.get(key) ?? 0) + weight)
  }
  const { preferredAffinity, preferredAnti } = pod.terms
  if (preferredAffinity.length > 0 || preferredAnti.length > 0)
    for (const other of world.placedPods()) {
      for (const { term, weight } of preferredAffinity) addTo(term, weight, other, other.node)
      for (const { term, weight } of preferredAnti) addTo(term, -weight, other, other.node)
    }
  for (const other of world.affinityPods()) {
    for (const term of other.terms.requiredAffinity) addTo(term, HARD_POD_AFFINITY_WEIGHT, pod, other.node)
    for (const { term, weight } of other.terms.preferredAffinity) addTo(term, weight, pod, other.node)
    for (const { term, weight } of other.terms.preferredAnti) addTo(term, -weight, pod, other.node)
  }
  if (scores.size === 0) return null
  return (nodeLabels) => {
    let score = 0
    for (const [key, value] of Object.entries(nodeLabels)) score += scores.get(pair(key, value)) ?? 0
    return score
  }
}
