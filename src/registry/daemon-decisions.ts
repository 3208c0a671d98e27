// What kube's daemon set controller decides in one sync (pkg/controller/daemon daemon_controller.go and update.go),
// over a DaemonSet, its pods and the nodes: which nodes need a daemon pod and which pods must go (manage and
// podsShouldBeOnNode, with surge), the rolling update's deletions and surge creations (maxUnavailable / maxSurge),
// and the status counts. Pure: the controller (src/namespace/daemonset-controller.ts) makes the writes.
import type { KubeObject } from '../schema/meta'
import { type DaemonNode, nodeShouldRunDaemonPod, targetNodeName } from './daemon-placement'
import { REVISION_HASH_LABEL } from './controller-history'
import { scaledValue } from './validation/int-or-percent'

type Obj = Record<string, any>

/** The label daemon pods carry with their set's template generation (extensions.DaemonSetTemplateGenerationKey). */
export const TEMPLATE_GENERATION_LABEL = 'pod-template-generation'

/** What the decisions need of the set and of time. */
export interface DaemonContext {
  ds: KubeObject
  hash: string
  templateGeneration: number | null
  now: number
  /** podutil.IsPodAvailable for the set's minReadySeconds; `wake` when a ready pod will be. */
  available(pod: KubeObject): { available: boolean; wake?: number }
}

export interface DaemonPlan {
  createOn: string[]
  deletePods: string[]
  /** Failed or succeeded pods being replaced, for kube's events. */
  finished: { pod: string; node: string; phase: string }[]
  /** When a pod becomes available and the plan may change. */
  wake: number | null
}

const phaseOf = (p: KubeObject) => (p as Obj).status?.phase as string | undefined
const isReady = (p: KubeObject) =>
  ((p as Obj).status?.conditions ?? []).some((c: Obj) => c.type === 'Ready' && c.status === 'True')
const rollingUpdate = (ds: KubeObject) => (ds as Obj).spec?.updateStrategy?.rollingUpdate as Obj | undefined
const isRolling = (ds: KubeObject) => (ds as Obj).spec?.updateStrategy?.type === 'RollingUpdate'

/** podByCreationTimestampAndPhase: scheduled pods first, then the oldest, then by name. */
function byCreationAndPhase(a: KubeObject, b: KubeObject): number {
  const sa = (a as Obj).spec?.nodeName ? 0 : 1
  const sb = (b as Obj).spec?.nodeName ? 0 : 1
  if (sa !== sb) return sa - sb
  const ta = Date.parse(a.metadata.creationTimestamp ?? '') || 0
  const tb = Date.parse(b.metadata.creationTimestamp ?? '') || 0
  if (ta !== tb) return ta - tb
  return a.metadata.name! < b.metadata.name! ? -1 : a.metadata.name! > b.metadata.name! ? 1 : 0
}

/** IsPodUpdated: the pod carries the current hash (or, for old pods, the current template generation). */
function isPodUpdated(pod: KubeObject, c: Pick<DaemonContext, 'hash' | 'templateGeneration'>): boolean {
  const labels = pod.metadata.labels ?? {}
  const templateMatches =
    c.templateGeneration !== null && labels[TEMPLATE_GENERATION_LABEL] === String(c.templateGeneration)
  return (c.hash !== '' && labels[REVISION_HASH_LABEL] === c.hash) || templateMatches
}

/** SurgeCount and UnavailableCount of a RollingUpdate set over `desired` nodes (0 for OnDelete). */
function bounds(ds: KubeObject, desired: number): { maxSurge: number; maxUnavailable: number } {
  if (!isRolling(ds)) return { maxSurge: 0, maxUnavailable: 0 }
  const ru = rollingUpdate(ds) ?? {}
  return {
    maxSurge: scaledValue(ru.maxSurge, desired, true) ?? 0,
    maxUnavailable: scaledValue(ru.maxUnavailable, desired, true) ?? 0,
  }
}

/** util.AllowsSurge. */
const allowsSurge = (ds: KubeObject) => bounds(ds, 1).maxSurge !== 0

/** getNodesToDaemonPods: the set's pods by the node they are on or meant for (terminal pods being deleted left out). */
function podsByNode(pods: readonly KubeObject[]): Map<string, KubeObject[]> {
  const out = new Map<string, KubeObject[]>()
  for (const pod of pods) {
    const terminal = phaseOf(pod) === 'Succeeded' || phaseOf(pod) === 'Failed'
    if (terminal && pod.metadata.deletionTimestamp) continue
    const node = targetNodeName(pod)
    if (node === null) continue
    out.set(node, [...(out.get(node) ?? []), pod])
  }
  return out
}

/** podsShouldBeOnNode for one node. */
function onNode(node: DaemonNode, pods: KubeObject[] | undefined, c: DaemonContext, plan: DaemonPlan) {
  const template = (c.ds as Obj).spec?.template?.spec
  const { shouldRun, shouldContinueRunning } = nodeShouldRunDaemonPod(node, template)
  if (shouldRun && !pods) {
    plan.createOn.push(node.name)
    return
  }
  if (!pods) return
  if (!shouldContinueRunning) {
    for (const p of pods) if (!p.metadata.deletionTimestamp) plan.deletePods.push(p.metadata.name!)
    return
  }
  const running: KubeObject[] = []
  for (const p of pods) {
    if (p.metadata.deletionTimestamp) continue
    const phase = phaseOf(p)
    if (phase === 'Failed' || phase === 'Succeeded') {
      plan.finished.push({ pod: p.metadata.name!, node: node.name, phase })
      plan.deletePods.push(p.metadata.name!)
    } else running.push(p)
  }
  running.sort(byCreationAndPhase)
  if (!allowsSurge(c.ds)) {
    // Without surge one pod per node: all but the oldest go.
    for (const p of running.slice(1)) plan.deletePods.push(p.metadata.name!)
    return
  }
  if (running.length <= 1) {
    if (running.length === 0 && shouldRun) plan.createOn.push(node.name)
    return
  }
  // With surge two pods may share a node while the new one comes up: the oldest new and the oldest old one.
  let oldestNew: KubeObject | undefined
  let oldestOld: KubeObject | undefined
  for (const p of running) {
    if ((p.metadata.labels ?? {})[REVISION_HASH_LABEL] === c.hash) {
      if (!oldestNew) {
        oldestNew = p
        continue
      }
    } else if (!oldestOld) {
      oldestOld = p
      continue
    }
    plan.deletePods.push(p.metadata.name!)
  }
  if (oldestNew && oldestOld) {
    const avail = c.available(oldestNew)
    if (!isReady(oldestOld) || avail.available) plan.deletePods.push(oldestOld.metadata.name!)
    else if (avail.wake !== undefined) plan.wake = Math.min(plan.wake ?? Number.POSITIVE_INFINITY, avail.wake)
  }
}

/** manage: the pods to create and delete so that every eligible node runs one daemon pod. */
export function managePlan(nodes: readonly DaemonNode[], pods: readonly KubeObject[], c: DaemonContext): DaemonPlan {
  const plan: DaemonPlan = { createOn: [], deletePods: [], finished: [], wake: null }
  const byNode = podsByNode(pods)
  for (const node of nodes) onNode(node, byNode.get(node.name), c, plan)
  // Pods meant for nodes that are gone: kube deletes the unscheduled ones here and leaves bound ones to the pod
  // garbage collector, which this control plane does not run, so the set removes both.
  const known = new Set(nodes.map((n) => n.name))
  for (const [node, list] of byNode)
    if (!known.has(node))
      for (const p of list) if (!p.metadata.deletionTimestamp) plan.deletePods.push(p.metadata.name!)
  return plan
}

/** findUpdatedPodsOnNode: at most one new and one old live pod, or null when there are more (manage cleans up). */
function updatedOnNode(pods: readonly KubeObject[], c: DaemonContext) {
  let fresh: KubeObject | undefined
  let old: KubeObject | undefined
  for (const p of pods) {
    if (p.metadata.deletionTimestamp) continue
    if (isPodUpdated(p, c)) {
      if (fresh) return null
      fresh = p
    } else {
      if (old) return null
      old = p
    }
  }
  return { fresh, old }
}

/** rollingUpdate: old pods to delete (maxUnavailable) or nodes to surge onto (maxSurge). */
export function rollingPlan(nodes: readonly DaemonNode[], pods: readonly KubeObject[], c: DaemonContext): DaemonPlan {
  const plan: DaemonPlan = { createOn: [], deletePods: [], finished: [], wake: null }
  const byNode = podsByNode(pods)
  const template = (c.ds as Obj).spec?.template?.spec
  const nodeByName = new Map(nodes.map((n) => [n.name, n]))
  let desired = 0
  for (const node of nodes) {
    if (!nodeShouldRunDaemonPod(node, template).shouldRun) continue
    desired++
    if (!byNode.has(node.name)) byNode.set(node.name, [])
  }
  let { maxSurge, maxUnavailable } = bounds(c.ds, desired)
  if (desired > 0 && maxUnavailable === 0 && maxSurge === 0) maxUnavailable = 1
  const availableNow = (p: KubeObject) => {
    const a = c.available(p)
    if (!a.available && a.wake !== undefined) plan.wake = Math.min(plan.wake ?? Number.POSITIVE_INFINITY, a.wake)
    return a.available
  }
  const shouldRunOn = (name: string) => {
    const node = nodeByName.get(name)
    return node ? nodeShouldRunDaemonPod(node, template).shouldRun : false
  }
  if (maxSurge === 0) {
    let unavailable = 0
    const replace: string[] = []
    const candidates: string[] = []
    for (const [, list] of byNode) {
      const found = updatedOnNode(list, c)
      if (!found) {
        unavailable++
        continue
      }
      const { fresh, old } = found
      if ((!old && !fresh) || (old && fresh)) unavailable++
      else if (fresh) {
        if (!availableNow(fresh)) unavailable++
      } else if (old) {
        if (!availableNow(old)) {
          replace.push(old.metadata.name!)
          unavailable++
        } else if (unavailable < maxUnavailable) candidates.push(old.metadata.name!)
      }
    }
    const room = Math.min(Math.max(0, maxUnavailable - unavailable), candidates.length)
    plan.deletePods.push(...replace, ...candidates.slice(0, room))
    return plan
  }
  let surge = 0
  let available = 0
  const allowedNew: string[] = []
  const candidateNew: string[] = []
  const shouldNotRun: string[] = []
  for (const [name, list] of byNode) {
    const found = updatedOnNode(list, c)
    if (!found) {
      surge++
      continue
    }
    const { fresh, old } = found
    if (old ? availableNow(old) : fresh ? availableNow(fresh) : false) available++
    if (!old) continue
    if (!fresh) {
      if (!availableNow(old)) {
        if (!shouldRunOn(name)) plan.deletePods.push(old.metadata.name!)
        else allowedNew.push(name)
      } else if (!shouldRunOn(name)) shouldNotRun.push(old.metadata.name!)
      else if (surge < maxSurge) candidateNew.push(name)
      continue
    }
    if (!availableNow(fresh)) {
      surge++
      continue
    }
    plan.deletePods.push(old.metadata.name!)
  }
  // With surge the owner expects full availability: pods on nodes they must leave go only once others are up.
  const deletable = Math.min(Math.max(0, available - desired), shouldNotRun.length)
  plan.deletePods.push(...shouldNotRun.slice(0, deletable))
  const room = Math.min(Math.max(0, maxSurge - surge), candidateNew.length)
  plan.createOn.push(...allowedNew, ...candidateNew.slice(0, room))
  return plan
}

/** updateDaemonSetStatus's counts. */
export function daemonCounts(nodes: readonly DaemonNode[], pods: readonly KubeObject[], c: DaemonContext) {
  const byNode = podsByNode(pods)
  const template = (c.ds as Obj).spec?.template?.spec
  let desired = 0
  let current = 0
  let misscheduled = 0
  let ready = 0
  let updated = 0
  let available = 0
  let wake: number | null = null
  for (const node of nodes) {
    const list = byNode.get(node.name) ?? []
    const { shouldRun } = nodeShouldRunDaemonPod(node, template)
    if (!shouldRun) {
      if (list.length > 0) misscheduled++
      continue
    }
    desired++
    if (list.length === 0) continue
    current++
    const pod = [...list].sort(byCreationAndPhase)[0]!
    if (isReady(pod)) {
      ready++
      const a = c.available(pod)
      if (a.available) available++
      else if (a.wake !== undefined) wake = Math.min(wake ?? Number.POSITIVE_INFINITY, a.wake)
    }
    if (isPodUpdated(pod, c)) updated++
  }
  return {
    counts: {
      currentNumberScheduled: current,
      numberMisscheduled: misscheduled,
      desiredNumberScheduled: desired,
      numberReady: ready,
      updatedNumberScheduled: updated,
      numberAvailable: available,
      numberUnavailable: desired - available,
    },
    wake,
  }
}
