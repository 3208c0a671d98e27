// The cluster Durable Object: cluster-scoped objects (namespaces, nodes) on the generic host, plus the scheduling
// ledger and the service allocators the namespace objects call (ClusterApi). It creates the system namespaces and
// virtual nodes, tells namespace objects their phase, and drives namespace deletion.
import { DurableObject } from 'cloudflare:workers'
import { durableParts } from '../host/durable-parts'
import { ObjectHost } from '../host/object-host'
import type { ListQuery, PatchOptions, PatchType, Snapshot, WriteAnswer, WriteOptions } from '../host/rpc-types'
import { decodeInput, type WriteInput } from '../host/rpc-json'
import type { GraphEdgeRow } from '../host/object-store'
import { closeQuietly } from '../host/watchers'
import { D1Log } from '../log/d1-log'
import { GarbageCollector, waitsOnGarbageCollector } from '../namespace/garbage-collector'
import { namespaceApi } from '../namespace/namespace-api'
import type { ListPage } from '../registry/list'
import { statuses, type Result } from '../registry/status'
import { readWatchRequest } from '../registry/watch-request'
import type { DeleteOptions, KubeObject } from '../schema/meta'
import type { Allocated, AllocationRequest, AllocationRow, ReserveAnswer } from './allocators/allocation-types'
import { ServiceAllocationHost } from './allocators/service-allocation-host'
import type { RepairResult } from './allocators/service-allocators'
import type {
  AdmitRequest,
  ClusterApi,
  ClusterOwnerRef,
  NamespacePhase,
  NodeFacts,
  OwnerMeta,
  Placement,
  PodAdmission,
  ReservedPod,
  ScheduleRequest,
} from './cluster-api'
import { NamespaceDependentsTable } from './gc-namespace-dependents'
import { ClusterPolicy } from './cluster-policy'
import { ClusterRoleAggregationController } from './clusterrole-aggregation-controller'
import { ensureSystemPriorityClasses } from './system-priority-classes'
import { CrdController } from './crd-controller'
import { bootstrapNodes, ensureSystemNamespaces } from './cluster-bootstrap'
import { customResourceInstances, nodeLifecycle } from './cluster-controllers'
import { VirtualNodeStatusController } from './virtual-node-status'
import { customKinds } from '../registry/custom/custom-kinds'
import { reconcileBootstrapPolicy } from '../host/bootstrap-policy'
import { Scheduling } from './scheduling'
import { DaemonNodes } from './daemon-nodes'
import { CLASS_RESOURCES, ClassHolders } from './class-holders'
import type { DaemonNode } from '../registry/daemon-placement'

export class ClusterObject extends DurableObject<Env> implements ClusterApi {
  private readonly host: ObjectHost
  private readonly scheduling: Scheduling
  /** The node list DaemonSets follow, and who is told when it changes. */
  private readonly daemonNodes: DaemonNodes
  /** Service cluster IPs and node ports (src/cluster/allocators/). */
  private readonly services: ServiceAllocationHost
  /** Which namespaces hold dependents of objects here, and their garbage collector's side of it. */
  private readonly namespaceDependents: NamespaceDependentsTable
  private readonly gc: GarbageCollector
  private readonly classHolders: ClassHolders

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env)
    const parts = durableParts(ctx, env, (_resource, obj) => waitsOnGarbageCollector(obj))
    this.scheduling = new Scheduling(ctx.storage.sql, parts.local.objects, env)
    // After the ledger, which makes the tables.
    this.daemonNodes = new DaemonNodes(ctx.storage.sql, parts.local.objects, env)
    this.services = new ServiceAllocationHost(ctx.storage, env, new D1Log(env.DB), parts.local.state, parts.alarms)
    this.classHolders = new ClassHolders((ns) => namespaceApi(env, ns).classesChanged())
    const policy = new ClusterPolicy({
      classHolders: this.classHolders,
      services: this.services,
      scheduling: this.scheduling,
      daemonNodes: this.daemonNodes,
      namespaces: (name) => namespaceApi(env, name),
      state: parts.local.state,
      alarms: parts.alarms,
      removeNamespace: (name) => this.host.remove('namespaces', name),
      ensureSystemNamespaces: () => ensureSystemNamespaces(this.host),
    })
    this.namespaceDependents = new NamespaceDependentsTable(ctx.storage.sql, {
      ownerChanged: (ns, uid, owner) => namespaceApi(env, ns).clusterOwnerChanged(uid, owner),
      kindsChanged: (ns) => namespaceApi(env, ns).ownerKindsChanged(),
    })
    this.gc = new GarbageCollector({ namespaces: this.namespaceDependents })
    this.host = new ObjectHost({
      ...parts,
      // The CRDs are this object's own: custom kinds are read from its state, never through RPC to itself.
      knowKind: (resource) => customKinds.know(resource, this.host),
      knowKindOf: (apiVersion, kind) => customKinds.knowKindOf(apiVersion, kind, this.host),
      scope: '',
      policy,
      controllers: [
        new ClusterRoleAggregationController(),
        new CrdController(customResourceInstances(env, () => this.host)),
        nodeLifecycle(env, this.scheduling.ledger),
        new VirtualNodeStatusController(),
        this.gc,
      ],
    })
    void ctx.blockConcurrencyWhile(async () => {
      await this.host.start()
      await ensureSystemNamespaces(this.host)
      // Authorization reads these: they are in place before the first request is served.
      await reconcileBootstrapPolicy(this.host.controllerView, '')
      await ensureSystemPriorityClasses(this.host.controllerView)
      await bootstrapNodes(this.host, env.VIRTUAL_NODES)
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
    const req = request.headers.get('upgrade') === 'websocket' ? readWatchRequest(new URL(request.url)) : null
    if (!req) return Response.json(statuses.pathNotFound(), { status: 404 })
    const opening = await this.host.watch(req)
    if ('refused' in opening) return Response.json(opening.refused, { status: opening.refused.code })
    const pair = new WebSocketPair()
    opening.accept(pair[1])
    return new Response(null, { status: 101, webSocket: pair[0] })
  }

  override async webSocketMessage(): Promise<void> {
    // Watch clients have nothing to say; kube ignores what they send.
  }

  override async webSocketClose(ws: WebSocket, code: number): Promise<void> {
    closeQuietly(ws, code)
    this.host.socketClosed()
  }

  override async alarm(): Promise<void> {
    await this.host.alarm()
  }

  /**
   * The Worker calls this before it serves its first API request: the system namespaces (made on start) and what the
   * `default` namespace keeps (the `kubernetes` service and its endpoints) exist, whatever that request is.
   */
  async bootstrap(): Promise<void> {
    if (this.host.state.get('default_bootstrapped')) return
    await namespaceApi(this.env, 'default').bootstrap()
    this.host.state.set('default_bootstrapped', '1')
  }

  // ---- ClusterApi: scheduling --------------------------------------------------------------------------------

  async namespacePhase(name: string): Promise<NamespacePhase | null> {
    const ns = this.host.objects.get('namespaces', name)
    if (!ns) return null
    return ((ns.object.status as { phase?: NamespacePhase } | undefined)?.phase ?? 'Active') as NamespacePhase
  }

  async schedulePod(req: ScheduleRequest): Promise<Placement> {
    return this.scheduling.schedulePod(req)
  }

  async schedulePods(reqs: ScheduleRequest[]): Promise<Placement[]> {
    return this.scheduling.schedulePods(reqs)
  }

  async assumePod(req: ScheduleRequest, node: string): Promise<void> {
    this.scheduling.assumePod(req, node)
  }

  async admitPods(reqs: AdmitRequest[]): Promise<PodAdmission[]> {
    return this.scheduling.admitPods(reqs)
  }

  async releasePod(podKey: string, ended?: boolean): Promise<boolean> {
    return this.scheduling.releasePod(podKey, ended === true)
  }

  async describePod(
    podKey: string,
    labels: Record<string, string>,
    podAffinity?: Record<string, unknown>,
  ): Promise<void> {
    this.scheduling.describePod(podKey, labels, podAffinity)
  }

  async podTerminating(podKey: string): Promise<void> {
    this.scheduling.podTerminating(podKey)
  }

  async reservedPods(ns: string): Promise<ReservedPod[]> {
    return this.scheduling.ledger.podKeysIn(ns)
  }

  async nodeFacts(name: string): Promise<NodeFacts | null> {
    return this.scheduling.nodeFacts(name)
  }

  async daemonNodeList(ns: string): Promise<DaemonNode[]> {
    return this.daemonNodes.list(ns)
  }

  async unwatchNodes(ns: string): Promise<void> {
    this.daemonNodes.unwatch(ns)
  }

  // ---- ClusterApi: cluster-scoped owners of namespaced objects (src/namespace/gc-cluster-owners.ts) ----------

  async clusterOwners(ns: string, refs: ClusterOwnerRef[]): Promise<(OwnerMeta | null)[]> {
    return this.namespaceDependents.owners(ns, refs, (r, n) => this.host.objects.get(r, n)?.object ?? null)
  }

  async clusterOwnersUnblocked(_ns: string, uids: string[]): Promise<void> {
    await this.gc.ownersUnblocked(this.host.controllerView, uids)
  }

  async classes(ns: string, since?: number): Promise<Snapshot> {
    this.classHolders.note(ns)
    return this.host.snapshot(CLASS_RESOURCES, since)
  }

  async awaitOwnerKinds(ns: string): Promise<void> {
    this.namespaceDependents.awaitKinds(ns)
  }

  // ---- ClusterApi: service IPs and node ports ----------------------------------------------------------------

  async reserve(owner: string, request: AllocationRequest, dryRun: boolean): Promise<ReserveAnswer> {
    return this.services.reserve(owner, request, dryRun)
  }

  async release(owner: string, what: Allocated | null): Promise<Allocated> {
    return this.services.release(owner, what)
  }

  /** The allocation table, for tests and operators. */
  async allocations(): Promise<AllocationRow[]> {
    return this.services.rows()
  }

  /** Runs the allocation repair pass now (tests, operators); graceMs protects reservations younger than it. */
  async repairAllocations(graceMs?: number): Promise<RepairResult> {
    return this.services.repair(graceMs)
  }
}
