// Scoring the nodes that passed the filters (pure). kube-scheduler 1.33 sums its score plugins, each normalized to
// 0-100 and weighted; the preferences are kube's own: TaintToleration (weight 3: the fewer untolerated PreferNoSchedule
// taints the better, DefaultNormalizeScore reversed), NodeAffinity (weight 2: the sum of the weights of the preferred
// terms the node matches, DefaultNormalizeScore) and InterPodAffinity (weight 2: the incoming pod's preferred terms
// over the pods in each topology domain, normalized between the lowest and highest node), PodTopologySpread (weight 2:
// the ScheduleAnyway constraints, topology-spread-score.ts, normalized there), NodeResourcesFit's LeastAllocated and
// NodeResourcesBalancedAllocation (weight 1 each, resource-scores.ts, 0-100 without normalizing). The highest total
// wins; ties go to the first node by name (kube picks one at random). ImageLocality (weight 1) is not scored: nodes
// here report no images.
import { matchesNodeSelectorTerm, tolerates } from './node-match'

type Obj = Record<string, any>

const MAX_NODE_SCORE = 100
const WEIGHTS = {
  taintToleration: 3,
  nodeAffinity: 2,
  interPodAffinity: 2,
  podTopologySpread: 2,
  nodeResourcesFit: 1,
  balancedAllocation: 1,
}

interface ScoredNode {
  name: string
  labels: Record<string, string>
  taints: { key: string; value?: string; effect: string }[]
}

interface ScoreInputs {
  affinity?: Obj
  tolerations?: Obj[]
  /** InterPodAffinity's raw score of a node's labels (pod-affinity.ts preferredAffinityScore); absent: skipped. */
  interPodAffinityScore?: (nodeLabels: Record<string, string>) => number
  /** PodTopologySpread's normalized scores of the candidates (topology-spread-score.ts); absent: skipped. */
  topologySpreadScore?: (nodes: readonly ScoredNode[]) => number[]
}

/** framework.DefaultNormalizeScore: scaled so the highest is 100 (integer division); reversed, 100 minus that. */
function defaultNormalize(raw: number[], reverse: boolean): number[] {
  const max = raw.reduce((m, s) => (s > m ? s : m), 0)
  if (max === 0) return raw.map(() => (reverse ? MAX_NODE_SCORE : 0))
  return raw.map((s) => {
    const scaled = Math.trunc((MAX_NODE_SCORE * s) / max)
    return reverse ? MAX_NODE_SCORE - scaled : scaled
  })
}

/** InterPodAffinity's NormalizeScore: 100 × (score − lowest) / (highest − lowest), truncated; all 0 when equal. */
function minMaxNormalize(raw: number[]): number[] {
  const min = raw.reduce((m, s) => (s < m ? s : m), Number.POSITIVE_INFINITY)
  const diff = raw.reduce((m, s) => (s > m ? s : m), Number.NEGATIVE_INFINITY) - min
  return raw.map((s) => (diff > 0 ? Math.trunc(MAX_NODE_SCORE * ((s - min) / diff)) : 0))
}

/** TaintToleration's raw score: the node's PreferNoSchedule taints no PreferNoSchedule (or any-effect) toleration covers. */
function intolerablePreferNoSchedule(taints: ScoredNode['taints'], relevant: Obj[]): number {
  let n = 0
  for (const t of taints) if (t.effect === 'PreferNoSchedule' && !tolerates(relevant, t)) n++
  return n
}

/** NodeAffinity's raw score: the weights of the preferred terms the node matches (a 0 weight counts nothing). */
function preferredNodeAffinity(affinity: Obj | undefined, node: ScoredNode): number {
  let score = 0
  for (const t of (affinity?.nodeAffinity?.preferredDuringSchedulingIgnoredDuringExecution ?? []) as Obj[])
    if (t.weight && matchesNodeSelectorTerm(t.preference ?? {}, node)) score += t.weight
  return score
}

/** A node's NodeResourcesFit and BalancedAllocation scores for the pod (0-100 each, resource-scores.ts). */
export interface ResourceScores {
  fit: number
  balanced: number
}

/** The total score of each node (same order), the weighted sum of the normalized plugin scores. */
export function scoreNodes<N extends ScoredNode>(
  pod: ScoreInputs,
  nodes: readonly N[],
  resourceScores: (node: N) => ResourceScores,
): number[] {
  const relevant = (pod.tolerations ?? []).filter((t) => !t.effect || t.effect === 'PreferNoSchedule')
  const taints = defaultNormalize(
    nodes.map((n) => intolerablePreferNoSchedule(n.taints, relevant)),
    true,
  )
  const nodeAffinity = defaultNormalize(
    nodes.map((n) => preferredNodeAffinity(pod.affinity, n)),
    false,
  )
  const interPod = pod.interPodAffinityScore
    ? minMaxNormalize(nodes.map((n) => pod.interPodAffinityScore!(n.labels)))
    : nodes.map(() => 0)
  const spread = pod.topologySpreadScore ? pod.topologySpreadScore(nodes) : nodes.map(() => 0)
  return nodes.map((n, i) => {
    const resources = resourceScores(n)
    return (
      WEIGHTS.taintToleration * taints[i]! +
      WEIGHTS.nodeAffinity * nodeAffinity[i]! +
      WEIGHTS.interPodAffinity * interPod[i]! +
      WEIGHTS.podTopologySpread * spread[i]! +
      WEIGHTS.nodeResourcesFit * resources.fit +
      WEIGHTS.balancedAllocation * resources.balanced
    )
  })
}
