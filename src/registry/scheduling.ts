// Scheduling decisions (pure): kube-scheduler's default filters in its order (NodeUnschedulable, NodeName,
// TaintToleration, NodeAffinity, NodePorts, NodeResourcesFit with ephemeral-storage and extended resources, then
// PodTopologySpread and InterPodAffinity, whose judgements the caller prepares), the scores of scoring.ts, and kube's
// "0/3 nodes are available" message with its preemption part.
import { parseQuantity, quantityScaledValue } from '../schema/quantity'
import { type HostPort, portsConflict } from './host-ports'
import { ANTI_AFFINITY_RULES, type AffinityVerdict, EXISTING_ANTI_AFFINITY_RULES } from './pod-affinity'
import { balancedAllocationScore, leastAllocatedScore } from './resource-scores'
import { type ResourceScores, scoreNodes } from './scoring'
import { SPREAD_CONSTRAINTS, type SpreadNode } from './topology-spread'
import { matchesAffinity, tolerates } from './node-match'
import {
  allocatableResources,
  type CpuAndMemory,
  effectiveRequests,
  NON_ZERO_DEFAULTS,
  otherShortages,
  type PodRequests,
} from './pod-requests'

type Obj = Record<string, any>

/** cpu, memory, and ephemeral-storage and scalar resources by name (`other`, absent when none). */
export type Resources = PodRequests

export interface NodeCandidate {
  name: string
  labels: Record<string, string>
  taints: { key: string; value?: string; effect: string }[]
  unschedulable: boolean
  ready: boolean
  allocatable: Resources & { pods: number }
  /**
   * What the node's pods request; `nonZero`, their NonZeroRequested (NodeResourcesFit's score; absent: the same as
   * cpuMilli and memBytes, every pod there naming both).
   */
  used: Resources & { pods: number; nonZero?: CpuAndMemory }
  /** The host ports pods on the node hold (NodeInfo.UsedPorts). */
  usedPorts?: HostPort[]
}

export interface PodNeeds {
  nodeName?: string
  nodeSelector?: Record<string, string>
  affinity?: Obj
  tolerations?: Obj[]
  requests: Resources
  /** cpu and memory with a container's unnamed request counted at kube's defaults (podNonZeroRequests). */
  nonZeroRequests: CpuAndMemory
  hostPorts?: HostPort[]
  /** The PodTopologySpread filter for this pod over a node's labels (topology-spread.ts); absent when it has none. */
  topologySpread?: (nodeLabels: Record<string, string>) => AffinityVerdict
  /** The InterPodAffinity filter for this pod over a node's labels (pod-affinity.ts); absent when it has nothing to do. */
  interPodAffinity?: (nodeLabels: Record<string, string>) => AffinityVerdict
  /** InterPodAffinity's raw score of a node's labels (pod-affinity.ts preferredAffinityScore); absent: none applies. */
  interPodAffinityScore?: (nodeLabels: Record<string, string>) => number
  /** PodTopologySpread's normalized scores of the candidates (topology-spread-score.ts); absent: none applies. */
  topologySpreadScore?: (nodes: readonly SpreadNode[]) => number[]
}

type ScheduleResult = { ok: true; node: string } | { ok: false; message: string }

const milli = (q: unknown) =>
  q === undefined || parseQuantity(String(q)) === null ? 0 : Number(quantityScaledValue(String(q), -3))
const whole = (q: unknown) =>
  q === undefined || parseQuantity(String(q)) === null ? 0 : Number(quantityScaledValue(String(q), 0))

/** A pod's effective requests (src/registry/pod-requests.ts) in the scheduler's units. */
export const podRequests = (spec: Obj | undefined): Resources => effectiveRequests(spec, milli, whole)

/** A pod's cpu and memory as the scheduler's NonZeroRequested counts them (NodeResourcesFit's score). */
export function podNonZeroRequests(spec: Obj | undefined): CpuAndMemory {
  const { cpuMilli, memBytes } = effectiveRequests(spec, milli, whole, NON_ZERO_DEFAULTS)
  return { cpuMilli, memBytes }
}

/** A node's allocatable as the scheduler's NodeInfo reads it (allocatableResources in its units). */
export function nodeAllocatable(status: Obj | undefined): Resources & { pods: number } {
  return allocatableResources(status?.allocatable ?? status?.capacity ?? {}, milli, whole)
}

const NO_FREE_PORTS = "node(s) didn't have free ports for the requested pod ports"

/** The reasons of kube's Unschedulable statuses (not UnschedulableAndUnresolvable): removing pods could help. */
const preemptionMightHelp = (r: string) =>
  r.startsWith('Insufficient') ||
  r === 'Too many pods' ||
  r === NO_FREE_PORTS ||
  r === ANTI_AFFINITY_RULES ||
  r === EXISTING_ANTI_AFFINITY_RULES ||
  r === SPREAD_CONSTRAINTS

/** Why a node cannot take the pod (kube's filter messages), or null if it can. */
function rejection(pod: PodNeeds, node: NodeCandidate): string[] | null {
  if (pod.nodeName && pod.nodeName !== node.name) return ["node(s) didn't match the requested node name"]
  const tolerations = pod.tolerations ?? []
  if (
    node.unschedulable &&
    !tolerates(tolerations, { key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' })
  ) {
    return ['node(s) were unschedulable']
  }
  // kube's filter order: NodeUnschedulable, NodeName, TaintToleration, NodeAffinity, NodeResourcesFit.
  const untolerated = node.taints.find(
    (t) => (t.effect === 'NoSchedule' || t.effect === 'NoExecute') && !tolerates(tolerations, t),
  )
  if (untolerated) return [`node(s) had untolerated taint {${untolerated.key}: ${untolerated.value ?? ''}}`]
  if (!matchesAffinity(pod, node)) return ["node(s) didn't match Pod's node affinity/selector"]
  if (!node.ready && !tolerates(tolerations, { key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' })) {
    return ['node(s) had untolerated taint {node.kubernetes.io/not-ready: }']
  }
  if (pod.hostPorts?.length && node.usedPorts?.length && portsConflict(pod.hostPorts, node.usedPorts))
    return [NO_FREE_PORTS]
  const reasons: string[] = []
  if (node.used.pods + 1 > node.allocatable.pods) reasons.push('Too many pods')
  if (pod.requests.cpuMilli > 0 && node.used.cpuMilli + pod.requests.cpuMilli > node.allocatable.cpuMilli)
    reasons.push('Insufficient cpu')
  if (pod.requests.memBytes > 0 && node.used.memBytes + pod.requests.memBytes > node.allocatable.memBytes)
    reasons.push('Insufficient memory')
  for (const short of otherShortages(pod.requests, node.allocatable, node.used))
    reasons.push(`Insufficient ${short.name}`)
  if (reasons.length) return reasons
  // PodTopologySpread, then InterPodAffinity: the last of kube's default filters.
  const spread = pod.topologySpread?.(node.labels)
  if (spread) return [spread.message]
  const affinity = pod.interPodAffinity?.(node.labels)
  return affinity ? [affinity.message] : null
}

/** NodeResourcesFit (over NonZeroRequested) and BalancedAllocation (over requests; skipped for best-effort pods). */
function resourceScores(pod: PodNeeds, node: NodeCandidate): ResourceScores {
  const nonZero = node.used.nonZero ?? node.used
  const fit = leastAllocatedScore(
    {
      cpuMilli: nonZero.cpuMilli + pod.nonZeroRequests.cpuMilli,
      memBytes: nonZero.memBytes + pod.nonZeroRequests.memBytes,
    },
    node.allocatable,
  )
  const bestEffort = pod.requests.cpuMilli === 0 && pod.requests.memBytes === 0
  const balanced = bestEffort
    ? 0
    : balancedAllocationScore(
        {
          cpuMilli: node.used.cpuMilli + pod.requests.cpuMilli,
          memBytes: node.used.memBytes + pod.requests.memBytes,
        },
        node.allocatable,
      )
  return { fit, balanced }
}

export function schedule(pod: PodNeeds, nodes: NodeCandidate[]): ScheduleResult {
  const feasible: NodeCandidate[] = []
  const counts = new Map<string, number>()
  // Nodes short of resources, ports or room by affinity or spread: preemption could help them (none is done).
  let resourceShort = 0
  for (const node of nodes) {
    const why = rejection(pod, node)
    if (!why) feasible.push(node)
    else {
      for (const r of why) counts.set(r, (counts.get(r) ?? 0) + 1)
      if (why.some(preemptionMightHelp)) resourceShort++
    }
  }
  // One node left: kube does not score it.
  if (feasible.length === 1) return { ok: true, node: feasible[0]!.name }
  if (feasible.length > 0) {
    // The highest total wins, ties to the first name (scoring.ts).
    const scores = scoreNodes(pod, feasible, (node) => resourceScores(pod, node))
    let best = 0
    for (let i = 1; i < feasible.length; i++) {
      const [s, b] = [scores[i]!, scores[best]!]
      if (s > b || (s === b && feasible[i]!.name < feasible[best]!.name)) best = i
    }
    return { ok: true, node: feasible[best]!.name }
  }
  const n = nodes.length
  if (n === 0) return { ok: false, message: 'no nodes available to schedule pods' }
  // kube sorts the formatted "count reason" strings.
  const reasons = [...counts.entries()].map(([r, c]) => `${c} ${r}`).sort()
  const detail = reasons.length ? ` ${reasons.join(', ')}.` : ''
  const preemption = [
    ...(resourceShort ? [`${resourceShort} No preemption victims found for incoming pod`] : []),
    ...(n - resourceShort ? [`${n - resourceShort} Preemption is not helpful for scheduling`] : []),
  ].sort()
  return {
    ok: false,
    message: `0/${n} nodes are available:${detail} preemption: 0/${n} nodes are available: ${preemption.join(', ')}.`,
  }
}
