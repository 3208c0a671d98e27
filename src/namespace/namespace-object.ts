// The per-namespace Durable Object: holds one namespace's objects and serializes their writes (StoreHost), and adds
// namespace admission, the controllers that run here, pod binding and logs, and the cleanup of namespace deletion.
import { StoreHost } from '../host/store-host'
import type { ResourceDef } from '../registry/resource'
import { fail, ok, statuses, type Result, type Status } from '../registry/status'
import { planRemoval, planDelete } from '../registry/store'
import { resourceByPlural } from '../registry/resources'
import type { Controller } from '../host/controller'
import type { KubeObject } from '../schema/meta'
import { SchedulerController, bindingChange, podKey } from './scheduler-controller'
import { KubeletController } from './kubelet-controller'
import { PodLogStore } from './pod-log-store'
import { LogFollowers } from './log-followers'
import { GarbageCollector } from './garbage-collector'
import { podNeedsAttention } from '../registry/pod-lifecycle'
import { ReplicationManager } from './replication-controller'
import { podLogRequest, type PodLogOptions } from '../registry/pod-log-request'
import { endpointsController } from './endpoints-controller'
import { endpointSliceController } from './endpointslice-controller'
import { beginServiceChange, releaseCommitted, type AllocatorStub } from './service-allocation'
import type { Change } from '../registry/store'
import type { LogEntry } from '../log/d1-log'
import { KubernetesServiceController } from './kubernetes-service-controller'

export type NamespacePhase = 'Active' | 'Terminating'

export class NamespaceObject extends StoreHost {
  /** Cached phase of this namespace; unknown (undefined) is asked of the cluster object. */
  private phase: NamespacePhase | undefined

  protected get scope(): string {
    return this.ctx.id.name ?? ''
  }

  private readonly logs: PodLogStore
  private readonly followers: LogFollowers
  private readonly scheduler = new SchedulerController()
  private readonly gc = new GarbageCollector()
  // A terminating namespace gets no new pods from its replication controllers.
  private readonly replication = new ReplicationManager({ canCreate: () => this.phase === 'Active' })
  private readonly kubelet: KubeletController
  /** Only in `default`: the `kubernetes` service and its endpoints. */
  private readonly kubernetesService: KubernetesServiceController | null

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env)
    this.phase = this.local.getState('phase') as NamespacePhase | undefined
    this.kubernetesService = this.scope === 'default' ? new KubernetesServiceController(env) : null
    this.logs = new PodLogStore(ctx.storage.sql)
    this.followers = new LogFollowers(ctx)
    this.kubelet = new KubeletController({
      startDelayMs: Number(env.KUBELET_START_DELAY_MS ?? '0'),
      stopDelayMs: Number(env.KUBELET_STOP_DELAY_MS ?? '0'),
      logs: this.logs,
      onLog: (uid, container, lines) => this.followers.send(uid, container, lines),
      onPodGone: (uid) => this.followers.end(uid),
    })
  }

  protected override needsAttention(resource: string, obj: KubeObject): boolean {
    if (resource === 'pods') return podNeedsAttention(obj as Record<string, any>)
    // Owners whose deletion waits on the garbage collector.
    const fin = obj.metadata.finalizers ?? []
    return obj.metadata.deletionTimestamp !== undefined && (fin.includes('orphan') || fin.includes('foregroundDeletion'))
  }

  protected override controllers(): readonly Controller[] {
    const all: Controller[] = [this.scheduler, this.kubelet, this.gc, endpointsController, endpointSliceController, this.replication]
    if (this.kubernetesService) all.push(this.kubernetesService)
    return all
  }

  /** The cluster object's service IP and node port allocators. */
  private get allocators(): AllocatorStub {
    return this.env.CLUSTER.getByName('cluster')
  }

  /** Services reserve their cluster IPs and node ports before they commit (released again if they do not). */
  protected override async beginChange(def: ResourceDef, change: Change, dryRun: boolean): Promise<{ status?: Status; rollback?: () => Promise<void> }> {
    if (def.plural === 'services') return beginServiceChange(this.allocators, change, dryRun)
    return super.beginChange(def, change, dryRun)
  }

  /** After a commit, and before the writes are answered: free what deleted or changed services gave up. */
  protected override async applied(entries: LogEntry[]): Promise<void> {
    await super.applied(entries)
    if (entries.some((e) => e.resource === 'services')) await releaseCommitted(this.allocators, entries)
  }

  protected override async start(): Promise<void> {
    await super.start()
    // Level-triggered controllers reconcile on every wake-up; nothing they owe is lost with the process.
    const now = Date.now()
    for (const c of this.controllers()) {
      void c.resync?.(this.controllerHost, now).catch((e: unknown) => console.error(`controller ${c.name} resync failed`, e))
    }
  }

  protected async admitCreate(_def: ResourceDef): Promise<Status | null> {
    await this.learnPhase()
    return this.admitCreateNow()
  }

  /** Asks the cluster object for this namespace's phase unless it is known. */
  private async learnPhase() {
    if (this.phase !== undefined) return
    const phase = await this.env.CLUSTER.getByName('cluster').namespacePhase(this.scope)
    // Only a namespace that exists is remembered: the cluster object tells us when that changes.
    if (phase) this.setPhaseLocally(phase)
  }

  protected admitCreateNow(): Status | null {
    if (this.phase === 'Active') return null
    if (this.phase === 'Terminating') {
      return statuses.forbidden(
        { resource: 'namespaces' },
        this.scope,
        `unable to create new content in namespace ${this.scope} because it is being terminated`,
      )
    }
    return statuses.notFound({ resource: 'namespaces' }, this.scope)
  }

  private setPhaseLocally(phase: NamespacePhase | undefined) {
    this.phase = phase
    this.local.setState('phase', phase)
  }

  // ---- called by the cluster object --------------------------------------------------------------------------

  /** The namespace was created (Active), is being deleted (Terminating) or is gone (null). */
  async setPhase(phase: NamespacePhase | null): Promise<void> {
    this.setPhaseLocally(phase ?? undefined)
  }

  /**
   * Deletes everything in the namespace (as kube's namespace controller does, without grace periods) and answers
   * how many objects remain (held by finalizers).
   */
  async terminate(): Promise<number> {
    this.setPhaseLocally('Terminating')
    const work: Promise<unknown>[] = []
    for (const resource of this.local.resources()) {
      const def = resourceByPlural(resource)
      if (!def) continue
      for (const name of this.local.names(resource)) {
        work.push(
          this.queue.submit(() => {
            const current = this.local.get(resource, name)
            if (!current) return { changes: [], finish: () => undefined }
            const plan = planDelete(def, this.strategyContext(), name, current, { gracePeriodSeconds: 0 })
            const change = plan.ok ? plan.value.change : null
            return { changes: change ? [change] : [], finish: () => undefined }
          }),
        )
      }
    }
    await Promise.all(work)
    let remaining = 0
    for (const resource of this.local.resources()) remaining += this.local.names(resource).length
    return remaining
  }

  /** Called by the cluster object before the first API request is served: what kube keeps in this namespace exists. */
  async bootstrap(): Promise<void> {
    await this.learnPhase()
    await this.kubernetesService?.ensure(this.controllerHost)
  }

  /** The cluster object says nodes or capacity changed: pods that could not be scheduled get another try. */
  async retryScheduling(): Promise<void> {
    await this.scheduler.resync(this.controllerHost)
  }

  /** POST pods/{name}/binding: binds an unbound pod to a node (201), or 409 if it is bound or being deleted. */
  async bind(name: string, node: string): Promise<Result<null>> {
    const res = { resource: 'pods/binding' }
    const current = this.local.get('pods', name)
    if (!current) return fail(statuses.notFound({ resource: 'pods' }, name))
    const pod = current.object as KubeObject & { spec?: { nodeName?: string } }
    if (pod.metadata.deletionTimestamp) return fail(statuses.conflict(res, name, `pod ${name} is being deleted, cannot be assigned to a host`))
    if (pod.spec?.nodeName) return fail(statuses.conflict(res, name, `pod ${name} is already assigned to node ${JSON.stringify(pod.spec.nodeName)}`))
    const uid = pod.metadata.uid
    const entry = await this.internalWrite('pods', name, (cur) => {
      const p = cur?.object as (KubeObject & { spec?: { nodeName?: string } }) | undefined
      if (!cur || !p || p.metadata.uid !== uid || p.spec?.nodeName || p.metadata.deletionTimestamp) return null
      return bindingChange(cur, node, new Date())
    })
    if (!entry) return fail(statuses.conflict(res, name, 'the pod changed while it was being bound; try again'))
    return ok(null)
  }

  /** GET pods/{name}/log (not following): the container's log as text. */
  async podLog(name: string, options: PodLogOptions): Promise<Result<string>> {
    const req = podLogRequest(this.local.get('pods', name), name, options)
    if (!req.ok) return req
    return ok(this.logs.read(req.value.uid, req.value.container, req.value.query).text)
  }

  override async fetch(request: Request): Promise<Response> {
    const url = new URL(request.url)
    if (url.pathname === '/log' && request.headers.get('upgrade') === 'websocket') return this.followLog(url)
    return super.fetch(request)
  }

  /** GET pods/{name}/log?follow=true: what is logged so far, then new lines until the pod stops. */
  private followLog(url: URL): Response {
    const options = JSON.parse(url.searchParams.get('options') ?? '{}') as PodLogOptions
    const name = url.searchParams.get('name') ?? ''
    const current = this.local.get('pods', name)
    const req = podLogRequest(current, name, options)
    if (!req.ok) return Response.json(req.status, { status: req.status.code })
    const pair = new WebSocketPair()
    const [client, server] = [pair[0], pair[1]]
    this.followers.accept(server, { uid: req.value.uid, container: req.value.container, timestamps: options.timestamps ?? false })
    const { text } = this.logs.read(req.value.uid, req.value.container, req.value.query)
    if (text) server.send(text)
    const phase = (current?.object.status as { phase?: string } | undefined)?.phase
    if (phase === 'Succeeded' || phase === 'Failed') server.close(1000, 'pod stopped')
    return new Response(null, { status: 101, webSocket: client })
  }

  /** Test and repair hook: removes one object whatever holds it. */
  async forceRemove(resource: string, name: string): Promise<boolean> {
    const def = resourceByPlural(resource)
    if (!def) return false
    return this.queue.submit(() => {
      const current = this.local.get(resource, name)
      return { changes: current ? [planRemoval(def, this.strategyContext(), current)] : [], finish: () => current !== null }
    })
  }
}
