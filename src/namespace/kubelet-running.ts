// The simulated kubelet's stages of a Running pod: activeDeadlineSeconds, completion (the rule in
// registry/container-program.ts), restarts of containers whose programs exit, program output, readiness gates and
// ephemeral containers. Each falls due at its own time; the step answers the earliest one still pending.
import type { NodeFacts } from '../cluster/cluster-api'
import type { ControllerHost } from '../host/controller'
import {
  desiredReady,
  ephemeralStatuses,
  podCompletion,
  setConditions,
  terminatedStatus,
} from '../registry/pod-lifecycle'
import type { Stored } from '../registry/store'
import { writeDueLogs } from './kubelet-logs'
import { type RestartDeps, stepRestarts } from './kubelet-restarts'

type Obj = Record<string, any>

/**
 * Advances a Running pod (`current`, read fresh) through the stages that have fallen due; answers when the next one
 * falls due (null: nothing pending, or the pod ended).
 */
export async function stepRunning(
  deps: RestartDeps,
  host: ControllerHost,
  current: Stored,
  facts: NodeFacts,
  now: number,
): Promise<number | null> {
  let pod = current.object as Obj
  const name = pod.metadata.name as string
  const uid = pod.metadata.uid as string
  const startTime = Date.parse(pod.status?.startTime ?? new Date(now).toISOString())
  const dues: number[] = []
  const deadline = pod.spec?.activeDeadlineSeconds as number | undefined
  if (deadline !== undefined) {
    const due = startTime + deadline * 1000
    if (now >= due) {
      await deps.writeStatus(host, name, uid, (p) =>
        p.status?.phase === 'Running'
          ? terminatedStatus(p, new Date(), {
              phase: 'Failed',
              reason: 'DeadlineExceeded',
              message: 'Pod was active on the node longer than the specified deadline',
              killed: true,
            })
          : null,
      )
      await deps.event(
        host,
        current.object,
        facts,
        'Normal',
        'DeadlineExceeded',
        'Pod was active on the node longer than the specified deadline',
      )
      return null
    }
    dues.push(due)
  }
  const completion = podCompletion(pod)
  if (completion) {
    const due = startTime + completion.seconds * 1000
    if (now >= due) {
      writeDueLogs(deps, pod, startTime, Number.MAX_SAFE_INTEGER)
      await deps.writeStatus(host, name, uid, (p) =>
        p.status?.phase === 'Running'
          ? terminatedStatus(p, new Date(), { phase: completion.failed ? 'Failed' : 'Succeeded' })
          : null,
      )
      return null
    }
    dues.push(due)
  }
  const restarts = await stepRestarts(deps, host, pod, facts, now)
  if (restarts.pod) pod = restarts.pod
  if (restarts.due !== null) dues.push(restarts.due)
  const logDue = writeDueLogs(deps, pod, startTime, now)
  if (logDue !== null) dues.push(logDue)
  const ready = desiredReady(pod, new Date())
  const ephemeral = ephemeralStatuses(pod, new Date())
  if (ready || ephemeral) {
    await deps.writeStatus(host, name, uid, (p) => {
      const status = { ...(p.status ?? {}) }
      const r = desiredReady(p, new Date())
      if (r) status.conditions = setConditions(status.conditions, r)
      const eph = ephemeralStatuses(p, new Date())
      if (eph) status.ephemeralContainerStatuses = eph
      return status
    })
  }
  return dues.length ? Math.min(...dues) : null
}
