// The pod table as kubectl prints it (printPod): NAME READY STATUS RESTARTS AGE, wide IP NODE NOMINATED NODE READINESS GATES.
import { CREATION_DOC, NAME_DOC } from '../../table-column-docs'
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
      description: NAME_DOC,
      priority: 0,
    },
    {
      name: 'Ready',
      type: 'string',
      format: '',
      description: 'The aggregate readiness state of this pod for accepting traffic.',
      priority: 0,
    },
    {
      name: 'Status',
      type: 'string',
      format: '',
      description: 'The aggregate status of the containers in this pod.',
      priority: 0,
    },
    {
      name: 'Restarts',
      type: 'string',
      format: '',
      description:
        'The number of times the containers in this pod have been restarted and when the last container in this pod has restarted.',
      priority: 0,
    },
    { name: 'Age', type: 'string', format: '', description: CREATION_DOC, priority: 0 },
    {
      name: 'IP',
      type: 'string',
      format: '',
      description:
        'podIP address allocated to the pod. Routable at least within the cluster. Empty if not yet allocated.',
      priority: 1,
    },
    {
      name: 'Node',
      type: 'string',
      format: '',
      description:
        'NodeName indicates in which node this pod is scheduled. If empty, this pod is a candidate for scheduling by the scheduler defined in schedulerName. Once this field is set, the kubelet for this node becomes responsible for the lifecycle of this pod. This field should not be used to express a desire for the pod to be scheduled on a specific node. https://kubernetes.io/docs/concepts/scheduling-eviction/assign-pod-node/#nodename',
      priority: 1,
    },
    {
      name: 'Nominated Node',
      type: 'string',
      format: '',
      description:
        'nominatedNodeName is set only when this pod preempts other pods on the node, but it cannot be scheduled right away as preemption victims receive their graceful termination periods. This field does not guarantee that the pod will be scheduled on this node. Scheduler may decide to place the pod elsewhere if other nodes become available sooner. Scheduler may also decide to give the resources on this node to a higher priority pod that is created after preemption. As a result, this field may be different than PodSpec.nodeName when the pod is scheduled.',
      priority: 1,
    },
    {
      name: 'Readiness Gates',
      type: 'string',
      format: '',
      description:
        'If specified, all readiness gates will be evaluated for pod readiness. A pod is ready when all its containers are ready AND all conditions specified in the readiness gates have status equal to "True" More info: https://git.k8s.io/enhancements/keps/sig-network/580-pod-readiness-gates',
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
