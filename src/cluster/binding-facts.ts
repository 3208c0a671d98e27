// What the node ledger records of a pod besides its node: its key and namespace, what it reserves (requests and the
// NonZeroRequested scoring counts), and, for InterPodAffinity and PodTopologySpread, its labels and its pod affinity
// and anti-affinity terms.
import { podAffinityOf } from '../registry/pod-affinity'
import type { CpuAndMemory, PodRequests } from '../registry/pod-requests'
import type { ScheduleRequest } from './cluster-api'

export function bindingFacts(req: ScheduleRequest, requests: PodRequests, nonZero: CpuAndMemory) {
  const terms = podAffinityOf(req.spec.affinity)
  return {
    podKey: req.podKey,
    ns: req.ns,
    ...requests,
    nonZero,
    ...(req.labels ? { labels: req.labels } : {}),
    ...(Object.keys(terms).length > 0 ? { podAffinity: terms } : {}),
  }
}
