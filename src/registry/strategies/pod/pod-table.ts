// The pod table as kubectl prints it (printPod): NAME READY STATUS RESTARTS AGE, wide IP NODE NOMINATED NODE READINESS GATES.
import type { TableConvertor } from '../../strategy'
import { age, humanDuration } from '../../human-duration'
import type { PodObject } from './pod-types'
import type { PodSpec, PodStatus } from '../../../schema/pod'

export const podTable: TableConvertor<PodObject> = {
  columns: [
    {
      name: 'Name',
      type: 'string',
      format: 'name',
      description: 'Name of the pod, unique within its namespace',
      priority: 0,
    },
    { name: 'Ready', type: 'string', format: '', description: 'Ready containers out of all containers', priority: 0 },
    {
      name: 'Status',
      type: 'string',
      format: '',
      description: 'The aggregate status of the containers in this pod',
      priority: 0,
    },
    {
      name: 'Restarts',
      type: 'string',
      format: '',
      description: 'Container restarts, and how long ago the last one was',
      priority: 0,
    },
    { name: 'Age', type: 'string', format: '', description: 'Time since the pod was created', priority: 0 },
    { name: 'IP', type: 'string', format: '', description: 'The IP address allocated to the pod', priority: 1 },
    { name: 'Node', type: 'string', format: '', description: 'The node the pod is bound to', priority: 1 },
    {
      name: 'Nominated Node',
      type: 'string',
      format: '',
      description: 'The node the scheduler nominated while preempting',
      priority: 1,
    },
    {
      name: 'Readiness Gates',
      type: 'string',
      format: '',
      description: 'Readiness gates that are true out of all gates',
      priority: 1,
    },
  ],
  cells(pod, now) {
    const spec: Partial<PodSpec> = pod.spec ?? {}
    const status: PodStatus = pod.status ?? {}
    const containers = (spec.containers ?? []) as { name: string }[]
    const restartableInit = ((spec.initContainers ?? []) as { name: string; restartPolicy?: string }[]).filter(
      (c) => c.restartPolicy === 'Always',
    )
    let total = containers.length + restartableInit.length
    let ready = 0
    let restarts = 0
    let lastRestart: number | undefined
    let reason: string = status.reason || status.phase || ''

    const initStatuses = (status.initContainerStatuses ?? []) as ContainerStatus[]
    let initializing = false
    for (let i = 0; i < initStatuses.length; i++) {
      const cs = initStatuses[i]!
      restarts += cs.restartCount ?? 0
      noteRestart(cs)
      const isSidecar = restartableInit.some((c) => c.name === cs.name)
      if (isSidecar && cs.ready) ready++
      const term = cs.state?.terminated
      if (term && term.exitCode === 0) continue
      if (isSidecar && cs.started) continue
      if (term) {
        reason = term.reason
          ? `Init:${term.reason}`
          : term.signal
            ? `Init:Signal:${term.signal}`
            : `Init:ExitCode:${term.exitCode}`
      } else if (cs.state?.waiting?.reason && cs.state.waiting.reason !== 'PodInitializing') {
        reason = `Init:${cs.state.waiting.reason}`
      } else {
        reason = `Init:${i}/${(spec.initContainers ?? []).length}`
      }
      initializing = true
      break
    }

    if (!initializing) {
      restarts = 0
      let hasRunning = false
      const statuses = (status.containerStatuses ?? []) as ContainerStatus[]
      for (let i = statuses.length - 1; i >= 0; i--) {
        const cs = statuses[i]!
        restarts += cs.restartCount ?? 0
        noteRestart(cs)
        if (cs.state?.waiting?.reason) reason = cs.state.waiting.reason
        else if (cs.state?.terminated?.reason) reason = cs.state.terminated.reason
        else if (cs.state?.terminated)
          reason = cs.state.terminated.signal
            ? `Signal:${cs.state.terminated.signal}`
            : `ExitCode:${cs.state.terminated.exitCode}`
        else if (cs.ready && cs.state?.running) {
          hasRunning = true
          ready++
        }
      }
      if (reason === 'Completed' && hasRunning) {
        reason = (status.conditions ?? []).some(
          (c: { type: string; status: string }) => c.type === 'Ready' && c.status === 'True',
        )
          ? 'Running'
          : 'NotReady'
      }
    }
    const gated = (status.conditions ?? []).some(
      (c: { type: string; reason?: string }) => c.type === 'PodScheduled' && c.reason === 'SchedulingGated',
    )
    if (gated) reason = 'SchedulingGated'
    if (pod.metadata.deletionTimestamp && status.reason === 'NodeLost') reason = 'Unknown'
    else if (pod.metadata.deletionTimestamp && status.phase !== 'Succeeded' && status.phase !== 'Failed')
      reason = 'Terminating'

    const podIPs = (status.podIPs ?? []) as { ip: string }[]
    const gates = (spec.readinessGates ?? []) as { conditionType: string }[]
    let gatesCell = '<none>'
    if (gates.length > 0) {
      const trueGates = gates.filter((g) =>
        (status.conditions ?? []).some(
          (c: { type: string; status: string }) => c.type === g.conditionType && c.status === 'True',
        ),
      ).length
      gatesCell = `${trueGates}/${gates.length}`
    }
    const restartsCell =
      lastRestart !== undefined ? `${restarts} (${humanDuration(now.getTime() - lastRestart)} ago)` : String(restarts)
    if (total === 0) total = 0
    return [
      pod.metadata.name,
      `${ready}/${total}`,
      reason,
      restartsCell,
      age(pod.metadata.creationTimestamp, now),
      podIPs[0]?.ip ?? status.podIP ?? '<none>',
      spec.nodeName || '<none>',
      status.nominatedNodeName || '<none>',
      gatesCell,
    ]

    function noteRestart(cs: ContainerStatus) {
      const finished = cs.lastState?.terminated?.finishedAt
      if ((cs.restartCount ?? 0) > 0 && finished) {
        const t = Date.parse(finished)
        if (lastRestart === undefined || t > lastRestart) lastRestart = t
      }
    }
  },
}

interface ContainerStatus {
  name: string
  ready?: boolean
  started?: boolean
  restartCount?: number
  state?: {
    waiting?: { reason?: string }
    running?: { startedAt?: string }
    terminated?: { exitCode: number; signal?: number; reason?: string }
  }
  lastState?: { terminated?: { finishedAt?: string } }
}
