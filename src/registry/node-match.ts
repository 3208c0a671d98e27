// Whether a node suits a pod by its labels, name and taints (pure, imports nothing): kube's
// GetRequiredNodeAffinity(pod).Match(node) (the node selector and the required node affinity terms) and
// v1.Toleration.ToleratesTaint. Shared by the scheduler's filters (scheduling.ts), DaemonSet placement and the
// kubelet's admission, in the Worker and in the node agent (which loads this file as it is, so it imports nothing).

type Obj = Record<string, any>

/** Whether any toleration tolerates the taint (v1.Toleration.ToleratesTaint). */
export function tolerates(tolerations: Obj[], taint: { key: string; value?: string; effect: string }): boolean {
  return tolerations.some((t) => {
    if (t.effect && t.effect !== taint.effect) return false
    if (t.operator === 'Exists') return !t.key || t.key === taint.key
    return t.key === taint.key && (t.value ?? '') === (taint.value ?? '')
  })
}

function matchExpression(labels: Record<string, string>, e: Obj): boolean {
  const v = labels[e.key]
  switch (e.operator) {
    case 'In':
      return v !== undefined && (e.values ?? []).includes(v)
    case 'NotIn':
      return v === undefined || !(e.values ?? []).includes(v)
    case 'Exists':
      return v !== undefined
    case 'DoesNotExist':
      return v === undefined
    case 'Gt':
    case 'Lt': {
      // Base-10 integers only, as kube parses them; any other label value never matches.
      const isInt = (x: unknown) => typeof x === 'string' && /^-?\d+$/.test(x)
      if (!isInt(v) || !isInt(e.values?.[0])) return false
      return e.operator === 'Gt' ? BigInt(v!) > BigInt(e.values[0]) : BigInt(v!) < BigInt(e.values[0])
    }
    default:
      return false
  }
}

/** nodeaffinity.GetRequiredNodeAffinity(pod).Match(node): the node selector and the required node affinity terms. */
export function matchesAffinity(
  pod: { nodeSelector?: Record<string, string>; affinity?: Obj },
  node: { name: string; labels: Record<string, string> },
): boolean {
  for (const [k, v] of Object.entries(pod.nodeSelector ?? {})) if (node.labels[k] !== v) return false
  const terms = pod.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms as
    | Obj[]
    | undefined
  if (!terms || terms.length === 0) return true
  // Terms are ORed.
  return terms.some((t) => matchesNodeSelectorTerm(t, node))
}

/** A node selector term: its expressions and fields ANDed; an empty term selects no node. */
export function matchesNodeSelectorTerm(t: Obj, node: { name: string; labels: Record<string, string> }): boolean {
  return (
    ((t.matchExpressions ?? []).length > 0 || (t.matchFields ?? []).length > 0) &&
    ((t.matchExpressions ?? []) as Obj[]).every((e) => matchExpression(node.labels, e)) &&
    ((t.matchFields ?? []) as Obj[]).every(
      (e) => e.key === 'metadata.name' && matchExpression({ 'metadata.name': node.name }, e),
    )
  )
}
