// The per-namespace Durable Object: one namespace's objects, their writes, watchers and controllers, composed from
// the generic host (src/host/object-host.ts) and this namespace's policy; plus pod binding and logs, and the work
// the cluster object asks of it (phase, termination, scheduling retries, bootstrap).
import { DurableObject } from 'cloudflare:workers'
import { clusterApi, type NamespacePhase, type OwnerMeta } from '../cluster/cluster-api'
import { durableParts } from '../host/durable-parts'
import { ObjectHost } from '../host/object-host'
import { reconcileBootstrapPolicy } from '../host/bootstrap-policy'
import type { ListQuery, PatchOptions, PatchType, Snapshot, WriteAnswer, WriteOptions } from '../host/rpc-types'
import { decodeInput, type WriteInput } from '../host/rpc-json'
import type { GraphEdgeRow } from '../host/object-store'
import { closeQuietly } from '../host/watchers'
import { bindPod } from '../registry/binding-subresource'
import type { ListPage } from '../registry/list'
import { podLogRequest, type PodLogOptions } from '../registry/pod-log-request'
import { resourceByPlural } from '../registry/resources'
import { fail, ok, statuses, type Result, type Status } from '../registry/status'
import { readWatchRequest } from '../registry/watch-request'
import type { DeleteOptions, KubeObject } from '../schema/meta'
import { evictPod } from './eviction'
import type { GarbageCollector } from './garbage-collector'
import type { DaemonSetController } from './daemonset-controller'
import { namespaceControllers } from './namespace-controllers'
import type { KubernetesServiceController } from './kubernetes-service-controller'
import { LogFollowers } from './log-followers'
import type { NamespaceApi } from './namespace-api'
import { NamespacePolicy } from './namespace-policy'
import { evictFromNode } from './node-eviction'
import { PodLogStore } from './pod-log-store'
import type { SchedulerController } from './scheduler-controller'
import type { ServiceAccountController } from './service-account-controller'
import type { RootCAPublisher } from './root-ca-publisher'

export type { NamespacePhase }

export class NamespaceObject extends DurableObject<Env> implements NamespaceApi {
  private readonly host: ObjectHost
  private readonly policy: NamespacePolicy
  private readonly logs: PodLogStore
  private readonly followers: LogFollowers
  private readonly scheduler: SchedulerController
  private readonly daemonSets: DaemonSetController
  private readonly serviceAccounts: ServiceAccountController
  private readonly rootCA: RootCAPublisher
  private readonly gc: GarbageCollector
  /** Only in `default`: the `kubernetes` service and its endpoints. */
  private readonly kubernetesService: KubernetesServiceController | null

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env)
    const scope = ctx.id.name ?? ''
    const cluster = () => clusterApi(env)
    // A pod's create makes the default ServiceAccount first if it is missing (the host exists by the time one comes).
    this.policy = new NamespacePolicy(scope, cluster, () => this.serviceAccounts.ensure(this.host.controllerView))
    const parts = durableParts(ctx, env, (resource, obj) => this.policy.needsAttention(resource, obj))
    this.policy.attach(parts.local.state)
    this.logs = new PodLogStore(ctx.storage.sql)
    this.followers = new LogFollowers(ctx)
    const wired = namespaceControllers(env, scope, {
      cluster,
      phase: () => this.policy.phase,
      quotas: this.policy.quotas,
      logs: this.logs,
      followers: this.followers,
    })
    this.scheduler = wired.scheduler
    this.daemonSets = wired.daemonSets
    this.serviceAccounts = wired.serviceAccounts
    this.rootCA = wired.rootCA
    this.gc = wired.gc
    this.kubernetesService = wired.kubernetesService
    this.host = new ObjectHost({ ...parts, scope, policy: this.policy, controllers: wired.controllers })
    // A crash between a commit and the local apply loses nothing: replay the log before serving anything.
    void ctx.blockConcurrencyWhile(async () => {
      await this.host.start()
      // The policy's Roles and RoleBindings of this namespace (kube-system, kube-public), like the controllers' work,
      // after the start rather than before serving: nothing a client does waits for them.
      void reconcileBootstrapPolicy(this.host.controllerView, scope).catch((e: unknown) =>
        console.error('bootstrap policy failed', e),
      )
    })
  }

  // ---- the verbs every host serves (src/api/hosts.ts) --------------------------------------------------------

  async get(resource: string, name: string, minRv?: number): Promise<Result<KubeObject>> {
    return this.host.get(resource, name, minRv)
  }

  async list(resource: string, q: ListQuery): Promise<Result<ListPage>> {
    return this.host.list(resource, q)
  }

  async snapshot(resources: string[], since?: number): Promise<Snapshot> {
    return this.host.snapshot(resources, since)
  }

  /** The Node authorizer's graph edges leaving a vertex (src/identity/node-graph.ts asks). */
  async graphEdgesFrom(type: string, namespace: string, name: string, node?: string): Promise<GraphEdgeRow[]> {
    return this.host.objects.graphEdgesFrom(type, namespace, name, node)
  }

  async create(resource: string, obj: WriteInput, opts: WriteOptions = {}): Promise<Result<WriteAnswer>> {
    return this.host.create(resource, decodeInput(obj), opts)
  }

  async update(resource: string, name: string, obj: WriteInput, opts: WriteOptions = {}): Promise<Result<WriteAnswer>> {
    return this.host.update(resource, name, decodeInput(obj), opts)
  }

  async patch(
    resource: string,
    name: string,
    type: PatchType,
    body: string,
    opts: PatchOptions,
  ): Promise<Result<WriteAnswer>> {
    return this.host.patch(resource, name, type, body, opts)
  }

  async delete(
    resource: string,
    name: string,
    options: DeleteOptions = {},
    opts: WriteOptions = {},
  ): Promise<Result<WriteAnswer>> {
    return this.host.delete(resource, name, options, opts)
  }

  async deleteCollection(
    resource: string,
    q: ListQuery,
    options: DeleteOptions = {},
    opts: WriteOptions = {},
  ): Promise<Result<ListPage>> {
    return this.host.deleteCollection(resource, q, options, opts)
  }

  async stats() {
    return this.host.stats()
  }

  override async fetch(request: Request): Promise<Response> {
    const url = new URL(request.url)
    if (request.headers.get('upgrade') !== 'websocket') return Response.json(statuses.pathNotFound(), { status: 404 })
    if (url.pathname === '/log') return this.followLog(url)
    const req = readWatchRequest(url)
    if (!req) return Response.json(statuses.pathNotFound(), { status: 404 })
    const opening = await this.host.watch(req)
    if ('refused' in opening) return Response.json(opening.refused, { status: opening.refused.code })
    const pair = new WebSocketPair()
    opening.accept(pair[1])
    return new Response(null, { status: 101, webSocket: pair[0] })
  }

  override async webSocketMessage(): Promise<void> {
    // Watch and log clients have nothing to say; kube ignores what they send.
  }

  override async webSocketClose(ws: WebSocket, code: number): Promise<void> {
    closeQuietly(ws, code)
    this.host.socketClosed()
  }

  override async alarm(): Promise<void> {
    await this.host.alarm()
  }

  // ---- called by the cluster object (NamespaceApi) -----------------------------------------------------------

  async setPhase(phase: NamespacePhase | null): Promise<void> {
    this.policy.setPhase(phase ?? undefined)
    // A namespace that became active gets its default ServiceAccount (not awaited: the caller is the cluster object).
    if (phase === 'Active') void this.serviceAccounts.ensure(this.host.controllerView)
    // ... and the kube-root-ca.crt ConfigMap (kube's root-ca-cert-publisher).
    if (phase === 'Active') void this.rootCA.ensure(this.host.controllerView)
  }

  async bootstrap(): Promise<void> {
    await this.policy.learnPhase()
    await this.kubernetesService?.ensure(this.host.controllerView)
  }

  /**
   * Deletes everything in the namespace (as kube's namespace controller does, without grace periods) and answers
   * how many objects remain (held by finalizers).
   */
  async terminate(): Promise<number> {
    this.policy.setPhase('Terminating')
    const work: Promise<unknown>[] = []
    for (const resource of this.host.objects.resources()) {
      for (const name of this.host.objects.names(resource))
        work.push(this.host.delete(resource, name, { gracePeriodSeconds: 0 }))
    }
    await Promise.all(work)
    let remaining = 0
    for (const resource of this.host.objects.resources()) remaining += this.host.objects.names(resource).length
    return remaining
  }

  async evictFromNode(node: string, taintedAt: number): Promise<number | null> {
    return evictFromNode(this.host.controllerView, node, taintedAt)
  }

  async retryScheduling(): Promise<void> {
    await this.scheduler.retry(this.host.controllerView)
  }

  async nodesChanged(): Promise<void> {
    await this.daemonSets.nodesChanged(this.host.controllerView)
  }

  async clusterOwnerChanged(uid: string, owner: OwnerMeta | null): Promise<{ dependents: number; blocking: boolean }> {
    return this.gc.clusterOwnerChanged(this.host.controllerView, uid, owner)
  }

  async ownerKindsChanged(): Promise<void> {
    await this.gc.kindsChanged(this.host.controllerView)
  }

  async classesChanged(): Promise<void> {
    this.policy.classesChanged()
  }

  // ---- pods: binding and logs --------------------------------------------------------------------------------

  /** POST pods/{name}/binding: binds an unbound pod to a node (kube's assignPod), or 409. */
  async bind(name: string, node: string, annotations?: Record<string, string>): Promise<Result<null>> {
    let refused: Result<null> | null = null
    const r = await this.host.mutate(
      'pods',
      name,
      (pod) => {
        const bound = bindPod(pod, node, annotations, new Date())
        if (!bound.ok) refused = bound
        return bound.ok ? bound.value : null
      },
      { subresource: 'binding' },
    )
    if (!r.ok) return fail(r.status)
    return refused ?? ok(null)
  }

  /** POST pods/{name}/eviction: deletes the pod if its disruption budget allows (src/namespace/eviction.ts). */
  async evict(name: string, options: DeleteOptions, dryRun: boolean): Promise<Result<Status>> {
    return evictPod(this.host.controllerView, name, options, dryRun)
  }

  /** GET pods/{name}/log (not following): the container's log as text. */
  async podLog(name: string, options: PodLogOptions): Promise<Result<string>> {
    const req = podLogRequest(this.host.objects.get('pods', name), name, options)
    if (!req.ok) return req
    return ok(this.logs.read(req.value.uid, req.value.container, req.value.query, req.value.lines).text)
  }

  /** GET pods/{name}/log?follow=true: what is logged so far, then new lines until the pod stops. */
  private followLog(url: URL): Response {
    const options = JSON.parse(url.searchParams.get('options') ?? '{}') as PodLogOptions
    const name = url.searchParams.get('name') ?? ''
    const current = this.host.objects.get('pods', name)
    const req = podLogRequest(current, name, options)
    if (!req.ok) return Response.json(req.status, { status: req.status.code })
    const pair = new WebSocketPair()
    const [client, server] = [pair[0], pair[1]]
    this.followers.accept(server, {
      uid: req.value.uid,
      container: req.value.container,
      timestamps: options.timestamps ?? false,
    })
    const { text } = this.logs.read(req.value.uid, req.value.container, req.value.query, req.value.lines)
    if (text) server.send(text)
    const phase = (current?.object.status as { phase?: string } | undefined)?.phase
    if (phase === 'Succeeded' || phase === 'Failed' || req.value.ended) server.close(1000, 'pod stopped')
    return new Response(null, { status: 101, webSocket: client })
  }

  /** Test and repair hook: removes one object whatever holds it. */
  async forceRemove(resource: string, name: string): Promise<boolean> {
    if (!resourceByPlural(resource)) return false
    return this.host.remove(resource, name)
  }
}
