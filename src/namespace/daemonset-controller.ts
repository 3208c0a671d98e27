// The daemon set controller of one namespace (kube's pkg/controller/daemon): one pod per eligible node, created with
// the set's template plus the daemon tolerations, its revision hash and template generation labels and a node
// affinity pinning it to its node, which the scheduler then binds; extra, finished and misplaced pods deleted; the
// RollingUpdate strategy (maxUnavailable, maxSurge) or OnDelete; ControllerRevisions as history; the status counts.
// The node list comes from the cluster object, which tells this namespace when nodes change. Driven by commits,
// node changes and alarms (minReadySeconds), never by polling; decisions are src/registry/daemon-decisions.ts's.
import type { ClusterApi } from '../cluster/cluster-api'
import type { Controller, ControllerHost } from '../host/controller'
import { recordEvent } from '../host/record-event'
import { REVISION_HASH_LABEL } from '../registry/controller-history'
import {
  type DaemonContext,
  type DaemonPlan,
  daemonCounts,
  managePlan,
  rollingPlan,
} from '../registry/daemon-decisions'
import { type DaemonNode, pinToNode, targetNodeName } from '../registry/daemon-placement'
import { createPodTemplate } from '../registry/daemon-pod-template'
import { deepEqual } from '../registry/deep-equal'
import { generateName } from '../registry/generate-name'
import type { LogEntry } from '../registry/store'
import { selectorMatcher, selectsSomething } from '../registry/strategies/apps/apps-selector'
import { type DaemonSetObject, templateGeneration } from '../registry/strategies/apps/daemon-set'
import type { KubeObject } from '../schema/meta'
import { claimRevisions, ensureRevision, type HistoryOwner, trimHistory } from './controller-revisions'
import {
  availability,
  CONTROLLER_MANAGER,
  claim,
  controllerRef,
  ownerReference,
  podFromTemplate,
  refusalNamingPrefix,
  SyncQueue,
} from './pod-owner'
import type { CreateRetries } from './create-retries'
import { ownersNamingNewServiceAccounts } from './service-account-waiters'

const DAEMONSETS = 'daemonsets'
const COMPONENT = 'daemonset-controller'
type Obj = Record<string, any>

interface DaemonSetOptions {
  cluster(): ClusterApi
  /** Whether new pods may be created now: a terminating namespace gets none. */
  canCreate(): boolean
  /** Where a set whose pod create was refused waits to be synced again (kube's AddRateLimited). */
  retries: CreateRetries
}

const history = (ds: DaemonSetObject): HistoryOwner => ({
  resource: DAEMONSETS,
  ref: ownerReference(ds, 'apps/v1', 'DaemonSet'),
  matches: selectorMatcher(ds.spec?.selector),
  copyAnnotations: true,
})

/** The pods a set controls now (all phases: finished ones are for manage to replace). */
const ownedPods = (host: ControllerHost, uid: string) =>
  host
    .all('pods')
    .map((s) => s.object)
    .filter((p) => controllerRef(p)?.uid === uid)

export class DaemonSetController implements Controller {
  readonly name = 'daemonset-controller'
  private readonly queue = new SyncQueue('daemon set controller')
  /** The cluster's nodes as last fetched; dropped when the cluster says they changed. */
  private nodes: DaemonNode[] | null = null
  /** The sets whose sync running now had a create refused (syncs of one set run one at a time). */
  private readonly refused = new Set<string>()

  constructor(private readonly opts: DaemonSetOptions) {}

  async onCommitted(entries: readonly LogEntry[], host: ControllerHost): Promise<void> {
    const sets = host.all(DAEMONSETS).map((s) => s.object as DaemonSetObject)
    if (sets.length === 0) return
    const names = new Set<string>()
    for (const e of entries) {
      if (e.resource === DAEMONSETS) {
        if (e.type !== 'DELETED') names.add(e.name)
        continue
      }
      if (e.resource !== 'pods' && e.resource !== 'controllerrevisions') continue
      for (const o of [e.object, e.prev]) {
        if (!o) continue
        const ref = controllerRef(o)
        for (const ds of sets) {
          if (ref?.uid === ds.metadata.uid || (!ref && selectorMatcher(ds.spec?.selector)(o.metadata.labels)))
            names.add(ds.metadata.name!)
        }
      }
    }
    for (const n of ownersNamingNewServiceAccounts(entries, host, DAEMONSETS)) names.add(n)
    await Promise.all([...names].map((n) => this.enqueue(host, n)))
  }

  /** On wake-ups and alarms: the node list is fetched again too, in case a node change went unheard. */
  async resync(host: ControllerHost): Promise<void> {
    this.nodes = null
    await Promise.all(host.all(DAEMONSETS).map((s) => this.enqueue(host, s.object.metadata.name!)))
  }

  /** The cluster's nodes changed: every set places its pods again (or the namespace stops listening). */
  async nodesChanged(host: ControllerHost): Promise<void> {
    if (host.all(DAEMONSETS).length === 0) {
      this.nodes = null
      await this.opts.cluster().unwatchNodes(host.scope)
      return
    }
    await this.resync(host)
  }

  private enqueue(host: ControllerHost, name: string): Promise<void> {
    return this.queue.enqueue(name, async () => {
      this.refused.delete(name)
      await this.sync(host, name)
      // kube's syncNodes returns the refusals and the worker requeues the set rate-limited; a clean sync Forgets it.
      const key = `${DAEMONSETS}/${name}`
      if (this.refused.delete(name)) await this.opts.retries.failed(key, () => this.enqueue(host, name), host)
      else this.opts.retries.forget(key)
    })
  }

  private async nodeList(host: ControllerHost): Promise<DaemonNode[]> {
    this.nodes ??= await this.opts.cluster().daemonNodeList(host.scope)
    return this.nodes
  }

  private async sync(host: ControllerHost, name: string): Promise<void> {
    const stored = host.get(DAEMONSETS, name)?.object as DaemonSetObject | undefined
    if (!stored || stored.metadata.deletionTimestamp) return
    const selector = stored.spec?.selector
    if (!selectsSomething(selector)) {
      const message = 'This daemon set is selecting all pods. A non-empty selector is required.'
      await this.event(host, stored, 'Warning', 'SelectingAll', message)
      return
    }
    const uid = stored.metadata.uid!
    const owner = history(stored)
    const nodes = await this.nodeList(host)
    await claim(
      host,
      'pods',
      owner.ref,
      () => {
        const now = host.get(DAEMONSETS, name)?.object
        return now && now.metadata.uid === uid ? { owner: now, matches: owner.matches } : null
      },
      (p) => !p.metadata.deletionTimestamp,
    )
    await claimRevisions(host, owner)
    const current = await ensureRevision(host, stored, owner)
    if (!current) return
    const hash = current.revision.metadata.labels?.[REVISION_HASH_LABEL] ?? ''
    const ctx = (ds: DaemonSetObject): DaemonContext => {
      const minReady = ds.spec?.minReadySeconds ?? 0
      const now = Date.now()
      return {
        ds,
        hash,
        templateGeneration: templateGeneration(ds),
        now,
        available: (p) => availability(p, minReady, now),
      }
    }
    let wake: number | null = null
    const planned = managePlan(nodes, ownedPods(host, uid), ctx(stored))
    await this.apply(host, stored, planned, hash)
    wake = planned.wake
    const afterManage = host.get(DAEMONSETS, name)?.object as DaemonSetObject | undefined
    if (afterManage?.metadata.uid === uid && afterManage.spec?.updateStrategy?.type === 'RollingUpdate') {
      const rolling = rollingPlan(nodes, ownedPods(host, uid), ctx(afterManage))
      await this.apply(host, afterManage, rolling, hash)
      if (rolling.wake !== null) wake = Math.min(wake ?? Number.POSITIVE_INFINITY, rolling.wake)
    }
    const liveHashes = new Set(ownedPods(host, uid).map((p) => p.metadata.labels?.[REVISION_HASH_LABEL]))
    await trimHistory(
      host,
      uid,
      stored.spec?.revisionHistoryLimit ?? 10,
      new Set([current.revision.metadata.name!]),
      (r) => liveHashes.has(r.metadata.labels?.[REVISION_HASH_LABEL]),
    )
    const statusWake = await this.writeStatus(host, name, uid, nodes, hash, current.collisionCount)
    if (statusWake !== null) wake = Math.min(wake ?? Number.POSITIVE_INFINITY, statusWake)
    if (wake !== null) await host.wakeAt(wake)
  }

  /** syncNodes: deletes what the plan says and creates one pod per node in slow-start batches (1, 2, 4...). */
  private async apply(host: ControllerHost, ds: DaemonSetObject, plan: DaemonPlan, hash: string) {
    for (const f of plan.finished) {
      const ns = host.scope
      const message =
        f.phase === 'Failed'
          ? `Found failed daemon pod ${ns}/${f.pod} on node ${f.node}, will try to kill it`
          : `Found succeeded daemon pod ${ns}/${f.pod} on node ${f.node}, will try to delete it`
      await this.event(host, ds, f.phase === 'Failed' ? 'Warning' : 'Normal', `${f.phase}DaemonPod`, message)
    }
    const uid = ds.metadata.uid!
    await Promise.all(
      [...new Set(plan.deletePods)].map(async (podName) => {
        const r = await host.reconcile('pods', podName, (cur) =>
          cur && controllerRef(cur)?.uid === uid && !cur.metadata.deletionTimestamp ? { delete: {} } : null,
        )
        if (r.ok && r.value && !r.value.unchanged)
          await this.event(host, ds, 'Normal', 'SuccessfulDelete', `Deleted pod: ${podName}`)
      }),
    )
    if (plan.createOn.length === 0 || !this.opts.canCreate()) return
    const template = createPodTemplate(ds.spec?.template, templateGeneration(ds), hash)
    const ref = ownerReference(ds, 'apps/v1', 'DaemonSet')
    let failure: string | null = null
    const nodes = [...plan.createOn]
    for (let batch = 1; nodes.length > 0 && !failure; batch *= 2) {
      const now = nodes.splice(0, batch)
      await Promise.all(
        now.map(async (node) => {
          const podName = generateName(`${ds.metadata.name}-`)
          const pod = podFromTemplate(template, ref, podName, `${ds.metadata.name}-`)
          ;(pod as Obj).spec.affinity = pinToNode((pod as Obj).spec.affinity, node)
          const r = await host.reconcile(
            'pods',
            podName,
            (cur) => {
              // Still needed at plan time: no other live pod of this set is meant for the node.
              const taken = host
                .all('pods')
                .some(
                  (s) =>
                    controllerRef(s.object)?.uid === uid &&
                    !s.object.metadata.deletionTimestamp &&
                    targetNodeName(s.object) === node &&
                    (s.object.metadata.labels ?? {})[REVISION_HASH_LABEL] === hash,
                )
              return cur || taken || !this.opts.canCreate() ? null : { create: pod }
            },
            { fieldManager: CONTROLLER_MANAGER },
          )
          if (!r.ok) failure = refusalNamingPrefix(r.status.message ?? 'invalid pod', podName, `${ds.metadata.name}-`)
          else if (r.value) await this.event(host, ds, 'Normal', 'SuccessfulCreate', `Created pod: ${podName}`)
        }),
      )
    }
    if (failure) {
      this.refused.add(ds.metadata.name!)
      await this.event(host, ds, 'Warning', 'FailedCreate', `Error creating: ${failure}`)
    }
  }

  /** updateDaemonSetStatus through daemonsets/status (a no-op when nothing changed); answers when to look again. */
  private async writeStatus(
    host: ControllerHost,
    name: string,
    uid: string,
    nodes: DaemonNode[],
    hash: string,
    collisionCount: number | undefined,
  ): Promise<number | null> {
    let wake: number | null = null
    await host.update(
      DAEMONSETS,
      name,
      (cur) => {
        const ds = cur as DaemonSetObject
        if (ds.metadata.uid !== uid) return null
        const minReady = ds.spec?.minReadySeconds ?? 0
        const now = Date.now()
        const { counts, wake: w } = daemonCounts(nodes, ownedPods(host, uid), {
          ds,
          hash,
          templateGeneration: templateGeneration(ds),
          now,
          available: (p: KubeObject) => availability(p, minReady, now),
        })
        wake = w
        const next: Obj = { ...(ds.status ?? {}), ...counts, observedGeneration: ds.metadata.generation }
        if (collisionCount !== undefined) next.collisionCount = collisionCount
        // Zero counts kube writes with omitempty are left out.
        for (const k of ['updatedNumberScheduled', 'numberAvailable', 'numberUnavailable'])
          if (next[k] === 0) delete next[k]
        if (deepEqual(ds.status, next)) return null
        ds.status = next as DaemonSetObject['status']
        return ds
      },
      { subresource: 'status', fieldManager: CONTROLLER_MANAGER },
    )
    return wake
  }

  private event(host: ControllerHost, ds: KubeObject, type: 'Normal' | 'Warning', reason: string, message: string) {
    return recordEvent(host, ds, { type, reason, message, component: COMPONENT })
  }
}
