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
import { SYSTEM_NAMESPACES } from '../registry/strategies/namespace'
import { parseVirtualNodes, virtualNode } from '../registry/virtual-nodes'
import { readWatchRequest } from '../registry/watch-request'
import type { DeleteOptions, KubeObject } from '../schema/meta'
import type { Allocated, AllocationRequest, AllocationRow, ReserveAnswer } from './allocators/allocation-types'
import { ServiceAllocationHost } from './allocators/service-allocation-host'
import type { RepairResult } from './allocators/service-allocators'
import type {
  ClusterApi,
  ClusterOwnerRef,
  NamespacePhase,
  NodeFacts,
  OwnerMeta,
  Placement,
  PodAddresses,
  ScheduleRequest,
} from './cluster-api'
import { NamespaceDependentsTable } from './gc-namespace-dependents'
import { ClusterPolicy } from './cluster-policy'
import { ClusterRoleAggregationController } from './clusterrole-aggregation-controller'
import { ensureSystemPriorityClasses } from './system-priority-classes'
import { NodeLifecycleController } from './node-lifecycle-controller'
import { CrdController, type CustomResourceInstances } from './crd-controller'
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
    this.daemonNodes = new DaemonNodes(this.scheduling.ledger, parts.local.objects, env)
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
      ensureSystemNamespaces: () => this.ensureSystemNamespaces(),
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
        new CrdController(this.customResources(env)),
        this.nodeLifecycle(env),
        this.gc,
      ],
    })
    void ctx.blockConcurrencyWhile(async () => {
      await this.host.start()
      await this.ensureSystemNamespaces()
      // Authorization reads these: they are in place before the first request is served.
      await reconcileBootstrapPolicy(this.host.controllerView, '')
      await ensureSystemPriorityClasses(this.host.controllerView)
      await this.bootstrapNodes()
    })
  }

  /** A CRD's custom resources for its cleanup: found in D1, deleted by the host of each namespace (or this one). */
  private customResources(env: Env): CustomResourceInstances {
    const log = new D1Log(env.DB)
    const all = { mode: { kind: 'latest' as const } }
    return {
      namespacesOf: (resource) => log.namespacesOf(resource),
      deleteAll: async (namespace, resource) => {
        const r =
          namespace === ''
            ? await this.host.deleteCollection(resource, all, { gracePeriodSeconds: 0 })
            : await env.NAMESPACES.getByName(namespace).deleteCollection(resource, all, { gracePeriodSeconds: 0 }, {})
        if (!r.ok && r.status.code !== 404) throw new Error(r.status.message)
      },
    }
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

  /** Creates whichever system namespace is missing (kube's system-namespaces controller); only kube-node-lease can go. */
  private async ensureSystemNamespaces() {
    await Promise.all(
      SYSTEM_NAMESPACES.map(async (name) => {
        if (this.host.objects.exists('namespaces', name)) return
        const r = await this.host.create('namespaces', { metadata: { name } })
        if (!r.ok && r.status.code !== 409) console.error(`system namespace ${name} was refused`, r.status.message)
      }),
    )
  }

  /**
   * Registers the virtual nodes of VIRTUAL_NODES not registered before, on every start: a larger count given later
   * (`npm start -- --nodes 100`) adds nodes to existing state. A node registered once is not registered again, so
   * a virtual node someone deleted stays deleted; nodes are never removed here.
   */
  private async bootstrapNodes() {
    const configs = parseVirtualNodes(this.env.VIRTUAL_NODES)
    const recorded = this.host.state.get('virtual_nodes_registered')
    // State from before this record kept only a flag: the nodes it registered are the ones still there.
    const registered = new Set<string>(
      recorded
        ? (JSON.parse(recorded) as string[])
        : this.host.state.get('nodes_bootstrapped')
          ? this.host.objects.names('nodes')
          : [],
    )
    const fresh = configs.map((config, i) => ({ config, i })).filter(({ config }) => !registered.has(config.name))
    if (fresh.length === 0 && recorded) return
    await Promise.all(
      fresh.map(async ({ config, i }) => {
        if (this.host.objects.exists('nodes', config.name)) return
        const r = await this.host.create('nodes', virtualNode(config, i, new Date()))
        if (!r.ok && r.status.code !== 409) console.error(`virtual node ${config.name} was refused`, r.status.message)
      }),
    )
    for (const { config } of fresh) if (this.host.objects.exists('nodes', config.name)) registered.add(config.name)
    this.host.state.set('virtual_nodes_registered', JSON.stringify([...registered]))
  }

  /** Real nodes that stop heartbeating go Unknown and tainted; their pods are evicted (node-lifecycle-controller.ts). */
  private nodeLifecycle(env: Env): NodeLifecycleController {
    return new NodeLifecycleController({
      graceMs: Number(env.NODE_MONITOR_GRACE_SECONDS ?? '40') * 1000,
      leaseRenewed: async (node) => {
        const r = (await env.NAMESPACES.getByName('kube-node-lease').get('leases', node)) as Result<KubeObject>
        const renewed = r.ok ? (r.value as { spec?: { renewTime?: string } }).spec?.renewTime : undefined
        return renewed ? Date.parse(renewed) : null
      },
      namespacesOn: (node) => this.scheduling.ledger.namespacesOn(node),
      evict: (ns, node, taintedAt) => namespaceApi(env, ns).evictFromNode(node, taintedAt),
    })
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

  async allocatePodIPs(podKeys: string[]): Promise<(PodAddresses | null)[]> {
    return podKeys.map((key) => this.scheduling.allocatePodIP(key))
  }

  async releasePod(podKey: string, ended?: boolean): Promise<boolean> {
    return this.scheduling.releasePod(podKey, ended === true)
  }

  async reservedPods(ns: string): Promise<string[]> {
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
