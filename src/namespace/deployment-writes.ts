// The writes one Deployment sync makes, each through the host's verbs like any client's (kube's deployment controller
// writes through the API): the Deployment's status and revision through /status, ReplicaSets created, scaled and
// deleted, and the events that go with them. A sync works on its own copy of the Deployment, as kube's does.
import type { ControllerHost } from '../host/controller'
import { recordEvent } from '../host/record-event'
import { clone, deepEqual } from '../registry/deep-equal'
import type { EventSpec } from '../registry/event-recorder'
import type { Status } from '../registry/status'
import { CONTROLLER_MANAGER } from './pod-owner'
import {
  type Deploy,
  maxSurge,
  REVISION,
  type RS,
  replicasAnnotationsNeedUpdate,
  setReplicasAnnotations,
} from './deployment-util'

const COMPONENT = 'deployment-controller'

/** A write the API refused: the sync stops, as kube's returns its error and is retried. */
export class SyncError extends Error {
  constructor(readonly status: Status) {
    super(status.message)
  }
}

export class DeploymentSync {
  constructor(
    readonly host: ControllerHost,
    /** The sync's copy of the Deployment: its status and revision annotation are what updateStatus writes. */
    readonly d: Deploy,
  ) {}

  now = () => new Date()

  event(type: EventSpec['type'], reason: string, message: string, about: Deploy | RS = this.d) {
    return recordEvent(this.host, about, { type, reason, message, component: COMPONENT })
  }

  /** UpdateStatus of the sync's copy: its status, and its revision annotation (a status write may carry it). */
  async updateStatus(): Promise<void> {
    const { d } = this
    const r = await this.host.update(
      'deployments',
      d.metadata.name!,
      (cur) => {
        if (cur.metadata.uid !== d.metadata.uid) return null
        const revision = d.metadata.annotations?.[REVISION]
        const sameRevision = revision === undefined || cur.metadata.annotations?.[REVISION] === revision
        if (sameRevision && deepEqual(cur.status ?? {}, d.status ?? {})) return null
        if (!sameRevision) cur.metadata.annotations = { ...(cur.metadata.annotations ?? {}), [REVISION]: revision! }
        cur.status = clone(d.status ?? {})
        return cur
      },
      { subresource: 'status', fieldManager: CONTROLLER_MANAGER },
    )
    if (!r.ok && r.status.code !== 404) throw new SyncError(r.status)
  }

  /** Replaces a ReplicaSet's spec and metadata with `next`'s (annotations, minReadySeconds), as an Update does. */
  async updateReplicaSet(rs: RS, change: (cur: RS) => void): Promise<RS> {
    const r = await this.host.update(
      'replicasets',
      rs.metadata.name!,
      (cur) => {
        if (cur.metadata.uid !== rs.metadata.uid) return null
        const before = clone(cur)
        change(cur as RS)
        return deepEqual(before, cur) ? null : cur
      },
      { fieldManager: CONTROLLER_MANAGER },
    )
    if (!r.ok) throw new SyncError(r.status)
    return (r.value?.object as RS | undefined) ?? rs
  }

  /** scaleReplicaSet: the new size and the Deployment's replicas annotations; an event when the size changed. */
  async scaleReplicaSet(rs: RS, size: number, operation: 'up' | 'down' | ''): Promise<{ scaled: boolean; rs: RS }> {
    const { d } = this
    const max = d.spec.replicas + maxSurge(d)
    const sizeChanges = rs.spec.replicas !== size
    if (!sizeChanges && !replicasAnnotationsNeedUpdate(rs, d.spec.replicas, max)) return { scaled: false, rs }
    const from = rs.spec.replicas
    const updated = await this.updateReplicaSet(rs, (cur) => {
      cur.spec.replicas = size
      setReplicasAnnotations(cur, d.spec.replicas, max)
    })
    if (sizeChanges) {
      const message = `Scaled ${operation} replica set ${rs.metadata.name} to ${size} from ${from}`
      await this.event('Normal', 'ScalingReplicaSet', message)
    }
    return { scaled: sizeChanges, rs: updated }
  }

  /** scaleReplicaSetAndRecordEvent: up or down as the sizes say; nothing when the size is already right. */
  scaleAndRecord(rs: RS, size: number): Promise<{ scaled: boolean; rs: RS }> {
    if (rs.spec.replicas === size) return Promise.resolve({ scaled: false, rs })
    return this.scaleReplicaSet(rs, size, rs.spec.replicas < size ? 'up' : 'down')
  }

  async deleteReplicaSet(rs: RS): Promise<void> {
    const r = await this.host.delete('replicasets', rs.metadata.name!, { preconditions: { uid: rs.metadata.uid } })
    if (!r.ok && r.status.code !== 404 && r.status.code !== 409) throw new SyncError(r.status)
  }
}
