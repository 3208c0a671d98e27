// Writing a pod's status as the kubelet's status manager does: through pods/{name}/status, one write at a time, only
// when it changed (transition times aside), as a strategic merge patch guarded by the pod's uid.
import { isNotFound, type KubeClient } from './kube-client.ts'
import type { Obj } from './obj.ts'

/** Status fields others write (scheduler, API server, resize): never sent. */
const OWNED_BY_OTHERS = ['nominatedNodeName', 'qosClass', 'resize']

export class StatusWriter {
  private written = ''
  private chain: Promise<void> = Promise.resolve()
  private readonly client: KubeClient
  private readonly uid: string

  constructor(client: KubeClient, uid: string) {
    this.client = client
    this.uid = uid
  }

  /** Queues a write of `status()` (computed when its turn comes); `answered` gets the pod the API answers. */
  write(pod: () => Obj, status: () => Obj, answered: (pod: Obj) => void, failed: (e: Error) => void): Promise<void> {
    this.chain = this.chain.then(() => this.writeOnce(pod(), status(), answered, failed))
    return this.chain
  }

  /** Resolves once the writes queued so far are done. */
  settled(): Promise<void> {
    return this.chain
  }

  private async writeOnce(pod: Obj, status: Obj, answered: (pod: Obj) => void, failed: (e: Error) => void) {
    const key = comparable(status)
    // Unchanged since our last write, and nobody else changed what we report since (the node controller marks pods
    // not ready while the agent is unreachable; back, the agent puts its view again).
    if (key === this.written && essence(status) === essence(pod.status)) return
    for (const k of OWNED_BY_OTHERS) delete status[k]
    // A strategic merge patch merges conditions by type: a reason or message a condition no longer has is removed.
    status.conditions = (status.conditions as Obj[]).map((c) => ({ reason: null, message: null, ...c }))
    const { namespace, name } = pod.metadata
    try {
      answered(
        await this.client.request(
          'PATCH',
          `/api/v1/namespaces/${namespace}/pods/${name}/status`,
          { metadata: { uid: this.uid }, status },
          'application/strategic-merge-patch+json',
        ),
      )
      this.written = key
    } catch (e) {
      if (!isNotFound(e)) failed(e as Error)
    }
  }
}

/** A status as JSON for comparing: transition times and null (absent) fields left out. */
const comparable = (status: Obj) =>
  JSON.stringify(status, (k, v) => (k === 'lastTransitionTime' || k === 'lastProbeTime' || v === null ? undefined : v))

const OURS = ['PodReadyToStartContainers', 'Initialized', 'Ready', 'ContainersReady']

/** What the agent reports that others may overwrite: phase, its conditions' statuses, its containers' states. */
const essence = (status: Obj | undefined) =>
  JSON.stringify([
    status?.phase,
    ((status?.conditions ?? []) as Obj[])
      .filter((c) => OURS.includes(c.type))
      .map((c) => [c.type, c.status])
      .sort(),
    ((status?.containerStatuses ?? []) as Obj[]).map((c) => [
      c.name,
      c.ready,
      c.restartCount,
      Object.keys(c.state ?? {}),
    ]),
  ])
