// kube-scheduler 1.33's two resource scores (pure), over cpu and memory with weight 1 each (the default
// NodeResourcesFitArgs and NodeResourcesBalancedAllocationArgs). NodeResourcesFit scores LeastAllocated over the
// node's NonZeroRequested (a container naming no cpu or memory counts 100m and 200 MiB, pod-requests.ts
// NON_ZERO_DEFAULTS), so pods that ask for nothing still spread; BalancedAllocation scores how evenly cpu and memory
// would be used, over the plain requests, and skips pods that request neither (kube #129138: otherwise every
// best-effort pod would favour the same node).
import type { CpuAndMemory } from './pod-requests'

const MAX_NODE_SCORE = 100

/** The resources a node has that scoring counts: those with allocatable above 0 (kube skips the others). */
function counted(requested: CpuAndMemory, allocatable: CpuAndMemory): [number, number][] {
  const pairs: [number, number][] = []
  if (allocatable.cpuMilli > 0) pairs.push([requested.cpuMilli, allocatable.cpuMilli])
  if (allocatable.memBytes > 0) pairs.push([requested.memBytes, allocatable.memBytes])
  return pairs
}

/**
 * leastResourceScorer: per resource (capacity − requested) × 100 / capacity in integer arithmetic (0 once requested
 * passes capacity), averaged by weight with integer division; `requested` includes the incoming pod.
 */
export function leastAllocatedScore(requested: CpuAndMemory, allocatable: CpuAndMemory): number {
  const pairs = counted(requested, allocatable)
  if (pairs.length === 0) return 0
  let sum = 0
  for (const [req, cap] of pairs) sum += req > cap ? 0 : Math.trunc(((cap - req) * MAX_NODE_SCORE) / cap)
  return Math.trunc(sum / pairs.length)
}

/**
 * balancedResourceScorer: (1 − the standard deviation of the fractions requested, each at most 1) × 100, truncated;
 * with two resources the deviation is half their difference. `requested` includes the incoming pod.
 */
export function balancedAllocationScore(requested: CpuAndMemory, allocatable: CpuAndMemory): number {
  const fractions = counted(requested, allocatable).map(([req, cap]) => Math.min(req / cap, 1))
  let std = 0
  if (fractions.length === 2) std = Math.abs((fractions[0]! - fractions[1]!) / 2)
  return Math.trunc((1 - std) * MAX_NODE_SCORE)
}
