// The kubelet's own admission of a pod bound to its node (pure, imports nothing: the node agent loads this file as it
// is): kube 1.33's predicateAdmitHandler.Admit. First the checks preemption cannot help (the pod's kubernetes.io/os
// label, spec.os, a Strict supplementalGroupsPolicy on a node that does not support it), then generalFilter, the
// scheduler's own filters run against the pods the kubelet admitted before: resources (pods, cpu, memory,
// ephemeral-storage and scalar resources, leaving out extended resources the node does not list at all), node
// affinity/selector, node name, host ports (scheduler.AdmissionCheck, every failure in that order), then untolerated
// NoExecute taints. Only the first failure is reported (reason and message); kubelet.rejectPod records it as a Warning
// event and makes the pod Failed with `Pod was rejected: <message>`.

type Obj = Record<string, any>

export interface Rejection {
  reason: string
  message: string
}

/** The node OS a kubelet of this project runs on (Go's runtime.GOOS). */
const GOOS = 'linux'

/**
 * The checks that need no other pod (Admit's first three): the pod's `kubernetes.io/os` label against the node's
 * (which the kubelet takes as GOOS whatever the node says), `spec.os.name`, and `supplementalGroupsPolicy: Strict` on
 * a node whose `status.features.supplementalGroupsPolicy` is not true (the feature is beta in 1.33).
 */
export function podRejection(pod: Obj, nodeFeatures: Obj | undefined): Rejection | null {
  const osLabel = pod.metadata?.labels?.['kubernetes.io/os']
  if (osLabel !== undefined && osLabel !== GOOS)
    return {
      reason: 'PodOSSelectorNodeLabelDoesNotMatch',
      message: "Failed to admit pod as the `kubernetes.io/os` label doesn't match node label",
    }
  if (pod.spec?.os && pod.spec.os.name !== GOOS)
    return { reason: 'PodOSNotSupported', message: "Failed to admit pod as the OS field doesn't match node OS" }
  const policy = pod.spec?.securityContext?.supplementalGroupsPolicy
  if (policy === 'Strict' && nodeFeatures?.supplementalGroupsPolicy !== true)
    return {
      reason: 'SupplementalGroupsPolicyNotSupported',
      message: 'SupplementalGroupsPolicy=Strict is not supported in this node',
    }
  return null
}

/** What generalFilter found, each check already decided by the caller (who has the node and its pods). */
export interface FilterFacts {
  requests: { cpuMilli: number; memBytes: number }
  allocatable: { cpuMilli: number; memBytes: number; pods: number }
  /** What the pods admitted before this one hold (the kubelet's active pods). */
  used: { cpuMilli: number; memBytes: number; pods: number }
  /**
   * ephemeral-storage and the scalar resources the node has too little of, in fitsRequest's order (pod-requests.ts's
   * otherShortages with the kubelet's skip, missingExtended).
   */
  otherShortages?: readonly { name: string; requested: number; used: number; capacity: number }[]
  /** The node selector and required node affinity match the node. */
  affinityMatches: boolean
  /** spec.nodeName is the node (always, for a pod the kubelet was given). */
  nameMatches: boolean
  /** No host port the pod asks for is held by an admitted pod. */
  portsFree: boolean
  /** The first NoExecute taint of the node the pod does not tolerate. */
  untoleratedNoExecute: boolean
}

const insufficient = (resource: string, requested: number, used: number, capacity: number): Rejection => ({
  // OutOfcpu, OutOfmemory, OutOfpods: "OutOf" and the resource name.
  reason: `OutOf${resource}`,
  message: `Node didn't have enough resource: ${resource}, requested: ${requested}, used: ${used}, capacity: ${capacity}`,
})

const predicate = (name: string, desc: string): Rejection => ({
  reason: name,
  message: `Predicate ${name} failed: ${desc}`,
})

/**
 * generalFilter's first failure (noderesources.Fits' order: pods, cpu, memory, ephemeral-storage, scalars), or null
 * when the pod fits.
 */
export function filterRejection(f: FilterFacts): Rejection | null {
  if (f.used.pods + 1 > f.allocatable.pods) return insufficient('pods', 1, f.used.pods, f.allocatable.pods)
  const { cpuMilli, memBytes } = f.requests
  if (cpuMilli > 0 && cpuMilli > f.allocatable.cpuMilli - f.used.cpuMilli)
    return insufficient('cpu', cpuMilli, f.used.cpuMilli, f.allocatable.cpuMilli)
  if (memBytes > 0 && memBytes > f.allocatable.memBytes - f.used.memBytes)
    return insufficient('memory', memBytes, f.used.memBytes, f.allocatable.memBytes)
  const other = f.otherShortages?.[0]
  if (other) return insufficient(other.name, other.requested, other.used, other.capacity)
  if (!f.affinityMatches) return predicate('NodeAffinity', "node(s) didn't match Pod's node affinity/selector")
  if (!f.nameMatches) return predicate('NodeName', "node(s) didn't match the requested node name")
  if (!f.portsFree) return predicate('NodePorts', "node(s) didn't have free ports for the requested pod ports")
  if (f.untoleratedNoExecute) return predicate('TaintToleration', "node(s) had taints that the pod didn't tolerate")
  return null
}

/** Whether a NoExecute taint of the node is not tolerated (generalFilter looks at no other effect). */
export function untoleratedNoExecute(
  taints: readonly { key: string; value?: string; effect: string }[],
  tolerates: (taint: { key: string; value?: string; effect: string }) => boolean,
): boolean {
  return taints.some((t) => t.effect === 'NoExecute' && !tolerates(t))
}

/** The pod conditions the kubelet owns (kubetypes.PodConditionsByKubelet, PodReadyToStartContainers on in 1.33). */
const KUBELET_CONDITIONS = new Set([
  'PodScheduled',
  'Ready',
  'Initialized',
  'ContainersReady',
  'PodResizeInProgress',
  'PodResizePending',
  'PodReadyToStartContainers',
])

/**
 * The status kubelet.rejectPod sets (phase Failed, the reason, `Pod was rejected: ` and the message, the QoS class
 * kept) as its status manager writes it: the start time kept or set now, and mergePodStatus keeping only the
 * conditions the kubelet does not own (so PodScheduled goes). No container statuses.
 */
export function rejectedStatus(current: Obj | undefined, rejection: Rejection, now: string): Obj {
  const status: Obj = {
    phase: 'Failed',
    reason: rejection.reason,
    message: `Pod was rejected: ${rejection.message}`,
    startTime: current?.startTime ?? now,
  }
  const kept = ((current?.conditions ?? []) as Obj[]).filter((c) => !KUBELET_CONDITIONS.has(c.type))
  if (kept.length > 0) status.conditions = kept
  if (current?.qosClass) status.qosClass = current.qosClass
  return status
}
