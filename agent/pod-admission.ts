// The agent's admission of a pod bound to its node, before anything of it starts: kube 1.33's predicateAdmitHandler
// (src/registry/kubelet-admission.ts, shared with the simulated kubelet) over the node as the API has it (labels,
// taints, allocatable, features) and the pods this agent admitted and still runs (kubelet's active pods). A rejected
// pod is made Failed as kubelet.rejectPod makes it: a Warning event, then its status (rejectedStatus) written once.
import { podHostPorts, portsConflict } from '../src/registry/host-ports.ts'
import {
  filterRejection,
  podRejection,
  type Rejection,
  rejectedStatus,
  untoleratedNoExecute,
} from '../src/registry/kubelet-admission.ts'
import { matchesAffinity, tolerates } from '../src/registry/node-match.ts'
import {
  addOther,
  allocatableResources,
  effectiveRequests,
  missingExtended,
  otherShortages,
  type PodRequests,
} from '../src/registry/pod-requests.ts'
import { quantity } from './pod-env.ts'
import type { Obj } from './obj.ts'
import { rfc3339 } from './time.ts'

/** A quantity rounded up to a whole number of `unit`s (resource.Quantity's Value/MilliValue); 0 when unreadable. */
const rounded = (unit: number) => (q: unknown) => {
  if (q === undefined || q === null) return 0
  try {
    // Parsed as a float: "0.1" is 100.00000000000001 milli, which must not round up to 101.
    return Math.ceil(quantity(String(q)) * unit - 1e-6)
  } catch {
    return 0
  }
}
const milli = rounded(1000)
const whole = rounded(1)

const requestsOf = (pod: Obj) => effectiveRequests(pod.spec, milli, whole)

/** Why the node cannot run `pod` (the first failure, as the kubelet reports it), or null: it is admitted. */
export function admission(pod: Obj, node: Obj, admitted: readonly Obj[]): Rejection | null {
  const refused = podRejection(pod, node.status?.features)
  if (refused) return refused
  const a = node.status?.allocatable ?? node.status?.capacity ?? {}
  const allocatable = allocatableResources(a, milli, whole)
  const used: PodRequests & { pods: number } = { cpuMilli: 0, memBytes: 0, pods: admitted.length }
  for (const p of admitted) {
    const r = requestsOf(p)
    used.cpuMilli += r.cpuMilli
    used.memBytes += r.memBytes
    addOther(used, r.other)
  }
  const wanted = podHostPorts(pod.spec)
  const tolerations = (pod.spec?.tolerations ?? []) as Obj[]
  const requests = requestsOf(pod)
  return filterRejection({
    requests,
    allocatable,
    used,
    otherShortages: otherShortages(requests, allocatable, used, missingExtended(allocatable)),
    affinityMatches: matchesAffinity(pod.spec ?? {}, {
      name: node.metadata?.name ?? '',
      labels: node.metadata?.labels ?? {},
    }),
    nameMatches: pod.spec?.nodeName === node.metadata?.name,
    portsFree:
      wanted.length === 0 ||
      !portsConflict(
        wanted,
        admitted.flatMap((p) => podHostPorts(p.spec)),
      ),
    untoleratedNoExecute: untoleratedNoExecute(node.spec?.taints ?? [], (t) => tolerates(tolerations, t)),
  })
}

/**
 * The status patch of a rejected pod (a strategic merge patch guarded by its uid): rejectedStatus, and the conditions
 * the kubelet owns that the pod had (PodScheduled after a binding) deleted, as the status manager's patch deletes them.
 */
export function rejectionPatch(pod: Obj, r: Rejection): Obj {
  const status = rejectedStatus(pod.status, r, rfc3339())
  const kept = new Set(((status.conditions ?? []) as Obj[]).map((c) => c.type))
  const dropped = ((pod.status?.conditions ?? []) as Obj[]).filter((c) => !kept.has(c.type))
  if (dropped.length > 0)
    status.conditions = [...(status.conditions ?? []), ...dropped.map((c) => ({ type: c.type, $patch: 'delete' }))]
  // qosClass is the API server's; the kubelet keeps it as it is.
  delete status.qosClass
  return { metadata: { uid: pod.metadata.uid }, status }
}
