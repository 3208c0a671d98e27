// kube's taint manager and MarkPodsNotReady for the pods of one namespace on a node the node lifecycle controller
// found unreachable (src/cluster/node-lifecycle-controller.ts): every pod there is marked not Ready (its Ready
// condition False, by the node controller); a pod is evicted (DisruptionTarget DeletionByTaintManager, then a
// graceful delete) once the unreachable NoExecute taint outlasts its toleration of it: at once without one, after
// tolerationSeconds with one (300 s from DefaultTolerationSeconds admission), never when a toleration has no seconds.
import type { ControllerHost } from '../host/controller'
import { recordEvent } from '../host/record-event'
import type { KubeObject } from '../schema/meta'

type Obj = Record<string, any>

const UNREACHABLE = 'node.kubernetes.io/unreachable'
const NODE_CONTROLLER = 'node-controller'
const rfc3339 = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z')

/** Seconds a pod tolerates the unreachable NoExecute taint (kube's getMinTolerationTime): null is forever. */
function toleratedSeconds(pod: Obj): number | null | 0 {
  const matching = ((pod.spec?.tolerations ?? []) as Obj[]).filter(
    (t) =>
      (t.effect === undefined || t.effect === '' || t.effect === 'NoExecute') &&
      (t.operator === 'Exists'
        ? t.key === undefined || t.key === '' || t.key === UNREACHABLE
        : t.key === UNREACHABLE && !t.value),
  )
  if (matching.length === 0) return 0
  if (matching.some((t) => t.tolerationSeconds === undefined || t.tolerationSeconds === null)) return null
  return Math.max(0, Math.min(...matching.map((t) => Number(t.tolerationSeconds))))
}

function withCondition(pod: KubeObject, condition: Obj): KubeObject {
  const p = pod as KubeObject & Obj
  const conditions = ((p.status?.conditions ?? []) as Obj[]).filter((c) => c.type !== condition.type)
  conditions.push(condition)
  return { ...p, status: { ...p.status, conditions } }
}

/** One pass over the namespace's pods on `node`; answers when the next eviction falls due (null: none pending). */
export async function evictFromNode(host: ControllerHost, node: string, taintedAt: number, now = Date.now()) {
  let next: number | null = null
  for (const { object } of host.all('pods')) {
    const pod = object as KubeObject & Obj
    if (pod.spec?.nodeName !== node || pod.metadata.deletionTimestamp) continue
    const { name, uid } = pod.metadata as { name: string; uid: string }
    const readyNow = ((pod.status?.conditions ?? []) as Obj[]).find((c) => c.type === 'Ready')
    if (readyNow?.status === 'True')
      await host.update(
        'pods',
        name,
        (p) =>
          p.metadata.uid === uid
            ? withCondition(p, { ...readyNow, status: 'False', lastTransitionTime: rfc3339(now) })
            : null,
        { subresource: 'status', fieldManager: NODE_CONTROLLER },
      )
    const seconds = toleratedSeconds(pod)
    if (seconds === null) continue
    const due = taintedAt + seconds * 1000
    if (now < due) {
      next = next === null ? due : Math.min(next, due)
      continue
    }
    await host.update(
      'pods',
      name,
      (p) =>
        p.metadata.uid === uid
          ? withCondition(p, {
              type: 'DisruptionTarget',
              status: 'True',
              lastProbeTime: null,
              lastTransitionTime: rfc3339(now),
              reason: 'DeletionByTaintManager',
              message: 'Taint manager: deleting due to NoExecute taint',
            })
          : null,
      { subresource: 'status', fieldManager: NODE_CONTROLLER },
    )
    await recordEvent(host, pod, {
      type: 'Normal',
      reason: 'TaintManagerEviction',
      message: `Marking for deletion Pod ${host.scope}/${name}`,
      component: 'taint-eviction-controller',
    })
    await host.delete('pods', name, { preconditions: { uid } })
  }
  return next
}
