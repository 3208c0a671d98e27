// Where a DaemonSet's pods belong, as kube's daemon set controller decides it (pkg/controller/daemon, util): the
// tolerations every daemon pod gets (AddOrUpdateDaemonPodTolerations), whether a node should run the pod and whether a
// pod already there may keep running (NodeShouldRunDaemonPod: node name, node selector and required affinity, taints),
// the node affinity that pins a new pod to its node for the scheduler (ReplaceDaemonSetPodNodeNameNodeAffinity), and
// the node a pod is meant for (GetTargetNodeName). Pure.
import type { KubeObject } from '../schema/meta'
import { matchesAffinity, tolerates } from './node-match'

type Obj = Record<string, any>

/** What the daemon set controller needs to know of a node. */
export interface DaemonNode {
  name: string
  labels: Record<string, string>
  taints: { key: string; value?: string; effect: string }[]
}

const exists = (key: string, effect: string) => ({ key, operator: 'Exists', effect })

/** AddOrUpdateTolerationInPodSpec: a toleration matching one already there (key, operator, value, effect) replaces it. */
function addOrUpdateToleration(spec: Obj, toleration: Obj) {
  const list = (spec.tolerations ?? []) as Obj[]
  const same = (t: Obj) =>
    (t.key ?? '') === toleration.key &&
    (t.operator ?? '') === toleration.operator &&
    (t.value ?? '') === (toleration.value ?? '') &&
    (t.effect ?? '') === toleration.effect
  spec.tolerations = list.some(same) ? list.map((t) => (same(t) ? { ...toleration } : t)) : [...list, { ...toleration }]
}

/** AddOrUpdateDaemonPodTolerations: daemon pods survive node problems and run on cordoned nodes. */
export function addDaemonTolerations(spec: Obj) {
  addOrUpdateToleration(spec, exists('node.kubernetes.io/not-ready', 'NoExecute'))
  addOrUpdateToleration(spec, exists('node.kubernetes.io/unreachable', 'NoExecute'))
  addOrUpdateToleration(spec, exists('node.kubernetes.io/disk-pressure', 'NoSchedule'))
  addOrUpdateToleration(spec, exists('node.kubernetes.io/memory-pressure', 'NoSchedule'))
  addOrUpdateToleration(spec, exists('node.kubernetes.io/pid-pressure', 'NoSchedule'))
  addOrUpdateToleration(spec, exists('node.kubernetes.io/unschedulable', 'NoSchedule'))
  if (spec.hostNetwork) addOrUpdateToleration(spec, exists('node.kubernetes.io/network-unavailable', 'NoSchedule'))
}

/**
 * NodeShouldRunDaemonPod for a template's pod spec: shouldRun (a pod belongs on the node) and shouldContinueRunning
 * (a pod already there may stay: it tolerates the node's NoExecute taints even if not its NoSchedule ones).
 */
export function nodeShouldRunDaemonPod(
  node: DaemonNode,
  podSpec: Obj | undefined,
): { shouldRun: boolean; shouldContinueRunning: boolean } {
  const spec: Obj = structuredClone(podSpec ?? {})
  addDaemonTolerations(spec)
  if (spec.nodeName && spec.nodeName !== node.name) return { shouldRun: false, shouldContinueRunning: false }
  if (!matchesAffinity({ nodeSelector: spec.nodeSelector, affinity: spec.affinity }, node))
    return { shouldRun: false, shouldContinueRunning: false }
  const untolerated = (effects: string[]) =>
    node.taints.some((t) => effects.includes(t.effect) && !tolerates(spec.tolerations ?? [], t))
  if (untolerated(['NoExecute', 'NoSchedule']))
    return { shouldRun: false, shouldContinueRunning: !untolerated(['NoExecute']) }
  return { shouldRun: true, shouldContinueRunning: true }
}

/** ReplaceDaemonSetPodNodeNameNodeAffinity: the required node affinity becomes "this node" (matchFields). */
export function pinToNode(affinity: Obj | undefined, nodeName: string): Obj {
  const terms = [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [nodeName] }] }]
  const next: Obj = structuredClone(affinity ?? {})
  next.nodeAffinity ??= {}
  next.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution = {
    ...(next.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution ?? {}),
    nodeSelectorTerms: terms,
  }
  return next
}

/** GetTargetNodeName: the node a pod is bound to, or the one its node affinity pins it to (null: neither). */
export function targetNodeName(pod: KubeObject): string | null {
  const spec = (pod as Obj).spec ?? {}
  if (spec.nodeName) return spec.nodeName
  const terms = (spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ??
    []) as Obj[]
  for (const term of terms) {
    for (const e of (term.matchFields ?? []) as Obj[]) {
      if (e.key === 'metadata.name' && e.operator === 'In') return e.values?.length === 1 ? e.values[0] : null
    }
  }
  return null
}
