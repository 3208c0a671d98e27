// kube-scheduler 1.33's PodTopologySpread score (pure), for a pod's `whenUnsatisfiable: ScheduleAnyway` constraints:
// PreScore ignores the candidate nodes that lack a constraint's key and weighs each constraint by log(domains + 2);
// a node's raw score is, per constraint, the matching pods in its domain (on the node itself for the hostname key)
// times that weight plus maxSkew - 1; NormalizeScore turns the fewest into 100 and ignored nodes into 0. A pod with
// no constraints at all gets kube's system default constraints (by hostname, maxSkew 3, and by zone, maxSkew 5) over
// the selector of the Services and controller that select it (default-spread-selector.ts); for those no node is
// ignored: a node without a key scores nothing for that constraint, and its empty value counts as a domain.
import type { MetaV1LabelSelector } from './label-selector'
import { type PlacedPod, pair } from './pod-affinity'
import { admitsNode, countsPod, type SpreadNode, spreadConstraints, systemDefaultConstraints } from './topology-spread'

type Obj = Record<string, any>
type Labels = Record<string, string>

const HOSTNAME = 'kubernetes.io/hostname'
const MAX_NODE_SCORE = 100

/**
 * PreScore for the pod: the normalized score of each candidate node (same order), or null when the plugin skips the
 * pod (no ScheduleAnyway constraint). `allNodes` are every node (pods in a domain count wherever they are placed).
 */
export function topologySpreadScore(
  pod: { ns: string; labels: Labels; spec: Obj | undefined; defaultSelector?: MetaV1LabelSelector },
  allNodes: readonly SpreadNode[],
  placedIn: (ns: string) => Iterable<PlacedPod>,
): ((candidates: readonly SpreadNode[]) => number[]) | null {
  // The pod's own constraints, if it states any (also only DoNotSchedule ones), else the system defaults.
  const own = ((pod.spec?.topologySpreadConstraints ?? []) as Obj[]).length > 0
  const constraints = own
    ? spreadConstraints(pod.spec, pod.labels, 'ScheduleAnyway')
    : pod.defaultSelector
      ? systemDefaultConstraints(pod.defaultSelector)
      : []
  if (constraints.length === 0) return null
  const tolerations = (pod.spec?.tolerations ?? []) as Obj[]
  // kube's requireAllTopologies: only a pod's own constraints leave out the nodes that lack one of their keys.
  const considered = (n: SpreadNode) => !own || constraints.every((c) => n.labels[c.topologyKey] !== undefined)
  const domainOf = (key: string, n: SpreadNode) => pair(key, n.labels[key] ?? '')
  return (candidates) => {
    const ignored = new Set(candidates.filter((n) => !considered(n)).map((n) => n.name))
    // The domains of the candidates, per constraint (per-node counts for the hostname key come later).
    const domainCounts = constraints.map(() => new Map<string, number>())
    for (const n of candidates) {
      if (ignored.has(n.name)) continue
      constraints.forEach((c, i) => {
        if (c.topologyKey !== HOSTNAME) domainCounts[i]!.set(domainOf(c.topologyKey, n), 0)
      })
    }
    const weights = constraints.map((c, i) =>
      Math.log((c.topologyKey === HOSTNAME ? candidates.length - ignored.size : domainCounts[i]!.size) + 2),
    )
    // Matching pods per node and constraint, then summed into the domains over the nodes the policies admit.
    const onNode = constraints.map(() => new Map<string, number>())
    for (const other of placedIn(pod.ns))
      constraints.forEach((c, i) => {
        if (countsPod(c, other)) onNode[i]!.set(other.node, (onNode[i]!.get(other.node) ?? 0) + 1)
      })
    for (const n of allNodes) {
      if (!considered(n)) continue
      constraints.forEach((c, i) => {
        if (c.topologyKey === HOSTNAME || !admitsNode(c, pod.spec, tolerations, n)) return
        const domain = domainOf(c.topologyKey, n)
        const sum = domainCounts[i]!.get(domain)
        if (sum !== undefined) domainCounts[i]!.set(domain, sum + (onNode[i]!.get(n.name) ?? 0))
      })
    }
    const raw = candidates.map((n) => {
      if (ignored.has(n.name)) return null
      let score = 0
      constraints.forEach((c, i) => {
        const value = n.labels[c.topologyKey]
        if (value === undefined) return
        const count =
          c.topologyKey === HOSTNAME ? (onNode[i]!.get(n.name) ?? 0) : domainCounts[i]!.get(pair(c.topologyKey, value))!
        score += count * weights[i]! + (c.maxSkew - 1)
      })
      return Math.round(score)
    })
    return normalize(raw)
  }
}

/** NormalizeScore: 100 × (max + min − score) / max, integer division; ignored nodes 0; all 100 when max is 0. */
function normalize(raw: (number | null)[]): number[] {
  const scored = raw.filter((s): s is number => s !== null)
  const min = Math.min(...scored)
  const max = Math.max(0, ...scored)
  return raw.map((s) => {
    if (s === null) return 0
    if (max === 0) return MAX_NODE_SCORE
    return Math.trunc((MAX_NODE_SCORE * (max + min - s)) / max)
  })
}
