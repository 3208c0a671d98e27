// kube-scheduler 1.33's InterPodAffinity filter (pure): a pod's required pod affinity and anti-affinity terms, and the
// required anti-affinity terms of the pods already on nodes, counted per topology pair (a topologyKey and the value a
// node has for it) as the plugin's PreFilter counts them, then judged per node in its Filter's order: the pod's
// affinity (UnschedulableAndUnresolvable), its anti-affinity, the existing pods' anti-affinity (both Unschedulable).
import { type LabelSelector, labelSelectorFromMetaV1 } from './label-selector'

type Obj = Record<string, any>
type Labels = Record<string, string>

/** framework.AffinityTerm: namespaces by name or by a selector over their labels, then pods by their labels. */
export interface AffinityTerm {
  namespaces: ReadonlySet<string>
  nsSelector: LabelSelector
  selector: LabelSelector
  topologyKey: string
}

/** A pod as the filter sees it: its namespace, labels and (for existing pods) required anti-affinity terms. */
interface AffinityPod {
  ns: string
  labels: Labels
}

export interface PlacedPod extends AffinityPod {
  node: string
}

export const AFFINITY_RULES = "node(s) didn't match pod affinity rules"
export const ANTI_AFFINITY_RULES = "node(s) didn't match pod anti-affinity rules"
export const EXISTING_ANTI_AFFINITY_RULES = "node(s) didn't satisfy existing pods anti-affinity rules"

/**
 * newAffinityTerm for each required term (in `list`, a pod spec's terms): a term naming no namespaces and no selector
 * means the pod's own namespace; a null namespaceSelector selects none, `{}` every one. A term whose selector does not
 * parse (validation refuses those) is left out.
 */
export function affinityTerms(ns: string, list: readonly Obj[] | undefined): AffinityTerm[] {
  const terms: AffinityTerm[] = []
  for (const t of list ?? []) {
    const selector = labelSelectorFromMetaV1(t.labelSelector)
    const nsSelector = labelSelectorFromMetaV1(t.namespaceSelector)
    if (!selector.ok || !nsSelector.ok) continue
    const names = (t.namespaces ?? []) as string[]
    const namespaces = new Set(names.length === 0 && t.namespaceSelector == null ? [ns] : names)
    terms.push({ namespaces, nsSelector: nsSelector.selector, selector: selector.selector, topologyKey: t.topologyKey })
  }
  return terms
}

/** A pod spec's required affinity and anti-affinity terms (GetRequiredAffinityTerms, GetRequiredAntiAffinityTerms). */
export function requiredTerms(ns: string, spec: Obj | undefined): { affinity: AffinityTerm[]; anti: AffinityTerm[] } {
  const required = 'requiredDuringSchedulingIgnoredDuringExecution'
  return {
    affinity: affinityTerms(ns, spec?.affinity?.podAffinity?.[required]),
    anti: affinityTerms(ns, spec?.affinity?.podAntiAffinity?.[required]),
  }
}

/** AffinityTerm.Matches: the pod is in one of the term's namespaces (by name or labels) and has matching labels. */
function termMatches(term: AffinityTerm, pod: AffinityPod, nsLabels: (ns: string) => Labels | undefined) {
  const inNamespace = term.namespaces.has(pod.ns) || term.nsSelector.matches(nsLabels(pod.ns) ?? {})
  return inNamespace && term.selector.matches(pod.labels)
}

/** Counts per topology pair (`key\u0000value`). */
type Counts = Map<string, number>
const pair = (key: string, value: string) => `${key}\u0000${value}`
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
  /** The placed pods with required anti-affinity terms (NodeInfo.PodsWithRequiredAntiAffinity). */
  antiAffinityPods(): Iterable<PlacedPod & { anti: readonly AffinityTerm[] }>
}

/** Why a node is refused, and whether preemption could help it (Unschedulable) or not (UnschedulableAndUnresolvable). */
export type AffinityVerdict = { message: string; resolvable: boolean } | null

/**
 * PreFilter for `pod`: the counts its Filter reads, as a function of a node's labels; null when the plugin skips the
 * pod (no terms of its own and no existing pod's anti-affinity against it).
 */
export function interPodAffinity(
  pod: AffinityPod & { affinity: readonly AffinityTerm[]; anti: readonly AffinityTerm[] },
  world: AffinityWorld,
): ((nodeLabels: Labels) => AffinityVerdict) | null {
  const existing: Counts = new Map()
  for (const other of world.antiAffinityPods())
    for (const term of other.anti)
      if (termMatches(term, pod, world.nsLabels)) add(existing, term.topologyKey, world.nodeLabels(other.node))
  if (existing.size === 0 && pod.affinity.length === 0 && pod.anti.length === 0) return null

  const affinityCounts: Counts = new Map()
  const antiCounts: Counts = new Map()
  if (pod.affinity.length > 0 || pod.anti.length > 0)
    for (const other of world.placedPods()) {
      const labels = world.nodeLabels(other.node)
      if (pod.affinity.length > 0 && pod.affinity.every((t) => termMatches(t, other, world.nsLabels)))
        for (const t of pod.affinity) add(affinityCounts, t.topologyKey, labels)
      for (const t of pod.anti) if (termMatches(t, other, world.nsLabels)) add(antiCounts, t.topologyKey, labels)
    }
  // The first pod of a group with affinity to itself: nothing matches anywhere yet, and it matches its own terms.
  const selfAffine = affinityCounts.size === 0 && pod.affinity.every((t) => termMatches(t, pod, world.nsLabels))

  return (nodeLabels) => {
    let podsExist = true
    for (const t of pod.affinity) {
      const value = nodeLabels[t.topologyKey]
      if (value === undefined) return { message: AFFINITY_RULES, resolvable: false }
      if (!((affinityCounts.get(pair(t.topologyKey, value)) ?? 0) > 0)) podsExist = false
    }
    if (!podsExist && !selfAffine) return { message: AFFINITY_RULES, resolvable: false }
    for (const t of pod.anti) {
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
