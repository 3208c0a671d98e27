// The stateful set controller of one namespace (kube's pkg/controller/statefulset): pods <set>-<ordinal> with stable
// identities, created and removed in order (OrderedReady) or together (Parallel), replaced when they finish, rolled
// to a new revision from the highest ordinal down to the partition (or left for OnDelete), with ControllerRevisions
// as history and the status kube reports. Claims from volumeClaimTemplates are made before their pod when the
// PersistentVolumeClaim kind is served (no storage is simulated: they stay Pending); otherwise the pods' claim
// volumes name claims that do not exist. Driven by commits and alarms (minReadySeconds), never by polling; decisions
// are src/registry/stateful-decisions.ts's.
import type { Controller, ControllerHost } from '../host/controller'
import { recordEvent } from '../host/record-event'
import { deepEqual } from '../registry/deep-equal'
import type { LogEntry } from '../registry/store'
import {
  ordinalOf,
  POD_INDEX_LABEL,
  POD_NAME_LABEL,
  podRevision,
  type StatefulAction,
  type StatefulContext,
  statefulCounts,
  statefulPlan,
  statefulPod,
} from '../registry/stateful-decisions'
import { selectorMatcher, selectsSomething } from '../registry/strategies/apps/apps-selector'
import type { StatefulSetObject } from '../registry/strategies/apps/stateful-set'
import type { KubeObject } from '../schema/meta'
import { claimRevisions, ensureRevision, type HistoryOwner, ownedRevisions, trimHistory } from './controller-revisions'
import { availability, CONTROLLER_MANAGER, claim, controllerRef, ownerReference, SyncQueue } from './pod-owner'
import type { CreateRetries } from './create-retries'
import { ownersNamingNewServiceAccounts } from './service-account-waiters'
import { createClaims, deleteClaims } from './statefulset-claims'

const SETS = 'statefulsets'
const COMPONENT = 'statefulset-controller'
type Obj = Record<string, any>

const history = (set: StatefulSetObject): HistoryOwner => ({
  resource: SETS,
  ref: ownerReference(set, 'apps/v1', 'StatefulSet'),
  matches: selectorMatcher(set.spec?.selector),
  copyAnnotations: false,
})

/** The set's pods: those it controls whose names are its own <set>-<ordinal>. */
const setPods = (host: ControllerHost, set: KubeObject) =>
  host
    .all('pods')
    .map((s) => s.object)
    .filter((p) => controllerRef(p)?.uid === set.metadata.uid && ordinalOf(set, p) >= 0)

/** ApplyRevision: the template a revision restores (its data is {"spec":{"template":{"$patch":"replace",...}}}). */
function revisionTemplate(revision: KubeObject): Obj {
  const t = structuredClone(((revision as Obj).data?.spec?.template ?? {}) as Obj)
  delete t.$patch
  return t
}

interface StatefulSetOptions {
  /** Whether new pods may be created now: a terminating namespace gets none. */
  canCreate(): boolean
  /** Where a set whose pod or claim create was refused waits to be synced again (kube's AddRateLimited). */
  retries: CreateRetries
}

export class StatefulSetController implements Controller {
  readonly name = 'statefulset-controller'
  private readonly queue = new SyncQueue('stateful set controller')
  /** The sets whose sync running now had a create refused (syncs of one set run one at a time). */
  private readonly refused = new Set<string>()

  constructor(private readonly opts: StatefulSetOptions) {}

  async onCommitted(entries: readonly LogEntry[], host: ControllerHost): Promise<void> {
    const sets = host.all(SETS).map((s) => s.object as StatefulSetObject)
    if (sets.length === 0) return
    const names = new Set<string>()
    for (const e of entries) {
      if (e.resource === SETS) {
        if (e.type !== 'DELETED') names.add(e.name)
        continue
      }
      if (e.resource !== 'pods' && e.resource !== 'controllerrevisions') continue
      for (const o of [e.object, e.prev]) {
        if (!o) continue
        const ref = controllerRef(o)
        for (const set of sets) {
          if (ref?.uid === set.metadata.uid || (!ref && selectorMatcher(set.spec?.selector)(o.metadata.labels)))
            names.add(set.metadata.name!)
        }
      }
    }
    for (const n of ownersNamingNewServiceAccounts(entries, host, SETS)) names.add(n)
    await Promise.all([...names].map((n) => this.enqueue(host, n)))
  }

  async resync(host: ControllerHost): Promise<void> {
    await Promise.all(host.all(SETS).map((s) => this.enqueue(host, s.object.metadata.name!)))
  }

  private enqueue(host: ControllerHost, name: string): Promise<void> {
    return this.queue.enqueue(name, async () => {
      this.refused.delete(name)
      await this.sync(host, name)
      // kube's sync returns the refusal and the worker requeues the set rate-limited; a sync without one Forgets it.
      const key = `${SETS}/${name}`
      if (this.refused.delete(name)) await this.opts.retries.failed(key, () => this.enqueue(host, name), host)
      else this.opts.retries.forget(key)
    })
  }

  private async sync(host: ControllerHost, name: string): Promise<void> {
    const set = host.get(SETS, name)?.object as StatefulSetObject | undefined
    if (!set || !selectsSomething(set.spec?.selector)) return
    const uid = set.metadata.uid!
    const owner = history(set)
    if (!set.metadata.deletionTimestamp) {
      await claim(
        host,
        'pods',
        owner.ref,
        () => {
          const now = host.get(SETS, name)?.object
          return now && now.metadata.uid === uid ? { owner: now, matches: owner.matches } : null
        },
        (p) => !p.metadata.deletionTimestamp && ordinalOf(set, p) >= 0,
      )
      await claimRevisions(host, owner)
    }
    const update = await ensureRevision(host, set, owner)
    if (!update) return
    const updateRevision = update.revision
    const currentName = set.status?.currentRevision
    const currentRevision = ownedRevisions(host, uid).find((r) => r.metadata.name === currentName) ?? updateRevision
    const c = this.context(set, currentRevision.metadata.name!, updateRevision.metadata.name!)
    const plan = statefulPlan(setPods(host, set), c)
    const templates = { current: revisionTemplate(currentRevision), update: revisionTemplate(updateRevision) }
    for (const action of plan.actions) {
      const ok = await this.act(host, set, action, templates, c)
      if (!ok) break
    }
    let wake = plan.wake
    const statusWake = await this.writeStatus(host, name, uid, c, update.collisionCount)
    if (statusWake !== null) wake = Math.min(wake ?? Number.POSITIVE_INFINITY, statusWake)
    const live = new Set(setPods(host, set).map(podRevision))
    await trimHistory(
      host,
      uid,
      set.spec?.revisionHistoryLimit ?? 10,
      new Set([currentRevision.metadata.name!, updateRevision.metadata.name!]),
      (r) => live.has(r.metadata.name),
    )
    if (wake !== null) await host.wakeAt(wake)
  }

  private context(set: StatefulSetObject, currentRevision: string, updateRevision: string): StatefulContext {
    const minReady = set.spec?.minReadySeconds ?? 0
    const now = Date.now()
    return { set, currentRevision, updateRevision, available: (p) => availability(p, minReady, now) }
  }

  /** One write of the plan, with kube's events; false stops the sync (a failed create). */
  private async act(
    host: ControllerHost,
    set: StatefulSetObject,
    action: StatefulAction,
    templates: { current: Obj; update: Obj },
    c: StatefulContext,
  ): Promise<boolean> {
    const uid = set.metadata.uid!
    if (action.type === 'delete') {
      const r = await host.reconcile('pods', action.pod, (cur) =>
        cur && controllerRef(cur)?.uid === uid && !cur.metadata.deletionTimestamp ? { delete: {} } : null,
      )
      if (r.ok && r.value && !r.value.unchanged) {
        await this.event(
          host,
          set,
          'Normal',
          'SuccessfulDelete',
          `delete Pod ${action.pod} in StatefulSet ${set.metadata.name} successful`,
        )
        if (action.reason === 'condemned' && set.spec?.persistentVolumeClaimRetentionPolicy?.whenScaled === 'Delete')
          await deleteClaims(host, set, ordinalOf(set, { metadata: { name: action.pod } }))
      }
      return true
    }
    if (action.type === 'relabel') {
      await host.update(
        'pods',
        action.pod,
        (cur) => {
          const ord = ordinalOf(set, cur)
          if (controllerRef(cur)?.uid !== uid || ord < 0) return null
          const labels = {
            ...(cur.metadata.labels ?? {}),
            [POD_NAME_LABEL]: cur.metadata.name!,
            [POD_INDEX_LABEL]: String(ord),
          }
          if (deepEqual(labels, cur.metadata.labels)) return null
          cur.metadata.labels = labels
          return cur
        },
        { fieldManager: CONTROLLER_MANAGER },
      )
      return true
    }
    if (!this.opts.canCreate()) return false
    const revision = action.revision === 'current' ? c.currentRevision : c.updateRevision
    const pod = statefulPod(
      set,
      templates[action.revision],
      action.ordinal,
      revision,
      ownerReference(set, 'apps/v1', 'StatefulSet'),
    )
    const event = (type: 'Normal' | 'Warning', reason: string, message: string) =>
      this.event(host, set, type, reason, message)
    if (await createClaims(host, set, pod, action.ordinal, event)) this.refused.add(set.metadata.name!)
    const r = await host.reconcile(
      'pods',
      pod.metadata.name!,
      (cur) => (cur || !this.opts.canCreate() ? null : { create: pod }),
      { fieldManager: CONTROLLER_MANAGER },
    )
    if (!r.ok) {
      const message = `create Pod ${pod.metadata.name} in StatefulSet ${set.metadata.name} failed error: ${r.status.message}`
      this.refused.add(set.metadata.name!)
      await this.event(host, set, 'Warning', 'FailedCreate', message)
      return false
    }
    if (r.value)
      await this.event(
        host,
        set,
        'Normal',
        'SuccessfulCreate',
        `create Pod ${pod.metadata.name} in StatefulSet ${set.metadata.name} successful`,
      )
    return true
  }

  /** The status kube writes through statefulsets/status (a no-op when nothing changed); answers when to look again. */
  private async writeStatus(
    host: ControllerHost,
    name: string,
    uid: string,
    c: StatefulContext,
    collisionCount: number | undefined,
  ): Promise<number | null> {
    let wake: number | null = null
    await host.update(
      SETS,
      name,
      (cur) => {
        const set = cur as StatefulSetObject
        if (set.metadata.uid !== uid) return null
        const counts = statefulCounts(setPods(host, set), { ...c, set })
        wake = counts.wake
        const next: Obj = {
          observedGeneration: set.metadata.generation,
          replicas: counts.replicas,
          readyReplicas: counts.ready,
          currentReplicas: counts.current,
          updatedReplicas: counts.updated,
          currentRevision: counts.currentRevision,
          updateRevision: c.updateRevision,
          collisionCount: collisionCount ?? 0,
          availableReplicas: counts.available,
        }
        // Zero counts kube writes with omitempty are left out.
        for (const k of ['readyReplicas', 'currentReplicas', 'updatedReplicas']) if (next[k] === 0) delete next[k]
        if (deepEqual(set.status, next)) return null
        set.status = next as StatefulSetObject['status']
        return set
      },
      { subresource: 'status', fieldManager: CONTROLLER_MANAGER },
    )
    return wake
  }

  private event(host: ControllerHost, set: KubeObject, type: 'Normal' | 'Warning', reason: string, message: string) {
    return recordEvent(host, set, { type, reason, message, component: COMPONENT })
  }
}
