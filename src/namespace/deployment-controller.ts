// kube's deployment controller for one namespace (pkg/controller/deployment): for each Deployment it claims the
// ReplicaSets its selector matches (adopting orphans, releasing the ones that stop matching), then, in kube's order,
// syncs status only while the Deployment is deleted, records paused/resumed progress, scales while paused or on a
// scaling event, or rolls out (RollingUpdate or Recreate). Driven by the namespace DO's commits (a Deployment, its
// ReplicaSets, the deletion of its pods) and alarms (minReadySeconds, progress deadlines), never by polling.
import type { Controller, ControllerHost } from '../host/controller'
import { clone } from '../registry/deep-equal'
import { selectorMatcher, selectsSomething } from '../registry/strategies/apps/apps-selector'
import type { LabelSelector } from '../registry/strategies/pod/pod-types'
import type { LogEntry } from '../registry/store'
import type { KubeObject } from '../schema/meta'
import { isScalingEvent, rolloutRecreate, rolloutRolling, syncScaling, syncStatus } from './deployment-rollout'
import { replicaSetsWithRevision } from './deployment-new-replica-set'
import { condition, type Deploy, hasProgressDeadline, newCondition, type RS, setCondition } from './deployment-util'
import { DeploymentSync, SyncError } from './deployment-writes'
import { type CreateRetries, namespaceClosed } from './create-retries'
import { claim, controllerRef, ownerReference, SyncQueue } from './pod-owner'

const DEPLOYMENTS = 'deployments'
const REPLICA_SETS = 'replicasets'

const selectorOf = (d: KubeObject) => (d.spec as { selector?: LabelSelector } | undefined)?.selector

export class DeploymentController implements Controller {
  readonly name = 'deployment-controller'
  private readonly queue = new SyncQueue('deployment controller')

  constructor(private readonly opts: { retries: CreateRetries }) {}

  async onCommitted(entries: readonly LogEntry[], host: ControllerHost): Promise<void> {
    const names = new Set<string>()
    for (const e of entries) {
      if (e.resource === DEPLOYMENTS) {
        if (e.type !== 'DELETED') names.add(e.name)
      } else if (e.resource === REPLICA_SETS) {
        for (const rs of [e.object, e.prev]) if (rs) for (const n of this.deploymentsFor(host, rs)) names.add(n)
      } else if (e.resource === 'pods' && e.type === 'DELETED') {
        // Recreate waits for the old pods to be gone, not only scaled away.
        const ref = controllerRef(e.object)
        const rs = ref?.kind === 'ReplicaSet' ? host.get(REPLICA_SETS, ref.name)?.object : undefined
        const owner = rs && controllerRef(rs)
        if (owner?.kind === 'Deployment') names.add(owner.name)
      }
    }
    await Promise.all([...names].map((n) => this.enqueue(host, n)))
  }

  async resync(host: ControllerHost): Promise<void> {
    await Promise.all(host.all(DEPLOYMENTS).map((s) => this.enqueue(host, s.object.metadata.name!)))
  }

  /** The Deployment controlling a ReplicaSet, or for an orphan every Deployment whose selector matches it. */
  private deploymentsFor(host: ControllerHost, rs: KubeObject): string[] {
    const ref = controllerRef(rs)
    if (ref) return ref.kind === 'Deployment' ? [ref.name] : []
    return host
      .all(DEPLOYMENTS)
      .filter(
        ({ object }) => selectsSomething(selectorOf(object)) && selectorMatcher(selectorOf(object))(rs.metadata.labels),
      )
      .map(({ object }) => object.metadata.name!)
  }

  private enqueue(host: ControllerHost, name: string): Promise<void> {
    return this.queue.enqueue(name, async () => {
      const key = `${DEPLOYMENTS}/${name}`
      try {
        await this.sync(host, name)
      } catch (e) {
        // kube requeues a failed sync (a refused ReplicaSet create or update) with its rate-limited backoff, 15 times
        // at most (maxRetries), then forgets the key until its next event; a namespace being terminated is not
        // retried (NamespaceTerminatingCause).
        if (!(e instanceof SyncError)) throw e
        if (namespaceClosed(e.status)) return this.opts.retries.forget(key)
        return this.opts.retries.failed(key, () => this.enqueue(host, name), host, { maxRetries: 15 })
      }
      this.opts.retries.forget(key)
    })
  }

  private async sync(host: ControllerHost, name: string): Promise<void> {
    const stored = host.get(DEPLOYMENTS, name)
    if (!stored) return
    const d = clone(stored.object) as Deploy
    const s = new DeploymentSync(host, d)
    const selector = selectorOf(d)
    if (!selectsSomething(selector)) {
      await s.event(
        'Warning',
        'SelectingAll',
        'This deployment is selecting all pods. A non-empty selector is required.',
      )
      if ((d.status?.observedGeneration ?? 0) < (d.metadata.generation ?? 0)) {
        d.status = { ...(d.status ?? {}), observedGeneration: d.metadata.generation }
        await s.updateStatus()
      }
      return
    }
    const uid = d.metadata.uid!
    const matches = selectorMatcher(selector)
    await claim(
      host,
      REPLICA_SETS,
      ownerReference(d, 'apps/v1', 'Deployment'),
      () => {
        const now = host.get(DEPLOYMENTS, name)?.object
        return now?.metadata.uid === uid ? { owner: now, matches: selectorMatcher(selectorOf(now)) } : null
      },
      (rs) => !rs.metadata.deletionTimestamp || controllerRef(rs)?.uid === uid,
    )
    const rsList = host
      .all(REPLICA_SETS)
      .map((x) => x.object as RS)
      .filter((rs) => controllerRef(rs)?.uid === uid && matches(rs.metadata.labels))
      .map((rs) => clone(rs))
    if (d.metadata.deletionTimestamp) {
      const sets = await replicaSetsWithRevision(s, rsList, false)
      return syncStatus(s, [...sets.oldRSs, sets.newRS], sets.newRS)
    }
    await checkPausedConditions(s)
    if (d.spec.paused) return syncScaling(s, await replicaSetsWithRevision(s, rsList, false))
    const sets = await replicaSetsWithRevision(s, rsList, false)
    if (isScalingEvent(s, sets)) return syncScaling(s, sets)
    if (d.spec.strategy?.type === 'Recreate') {
      return rolloutRecreate(s, rsList, (newRS) => oldPodsRunning(host, rsList, newRS))
    }
    return rolloutRolling(s, rsList)
  }
}

/** checkPausedConditions: a paused Deployment's progress is Unknown (DeploymentPaused) until it resumes. */
async function checkPausedConditions(s: DeploymentSync): Promise<void> {
  const { d } = s
  if (!hasProgressDeadline(d)) return
  const current = condition(d.status, 'Progressing')
  if (current?.reason === 'ProgressDeadlineExceeded') return
  const pausedNoted = current?.reason === 'DeploymentPaused'
  let c = null
  if (d.spec.paused && !pausedNoted)
    c = newCondition('Progressing', 'Unknown', 'DeploymentPaused', 'Deployment is paused', s.now())
  else if (!d.spec.paused && pausedNoted)
    c = newCondition('Progressing', 'Unknown', 'DeploymentResumed', 'Deployment is resumed', s.now())
  if (!c) return
  setCondition((d.status ??= {}), c)
  await s.updateStatus()
}

/** oldPodsRunning: pods of old ReplicaSets that are not finished, terminating ones included. */
function oldPodsRunning(host: ControllerHost, rsList: RS[], newRS: RS | null): boolean {
  const old = new Set(rsList.filter((rs) => rs.metadata.uid !== newRS?.metadata.uid).map((rs) => rs.metadata.uid))
  return host.all('pods').some(({ object: p }) => {
    const ref = controllerRef(p)
    if (!ref || !old.has(ref.uid)) return false
    const phase = (p.status as { phase?: string } | undefined)?.phase
    return phase !== 'Succeeded' && phase !== 'Failed'
  })
}
