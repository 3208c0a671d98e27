// What namespace objects ask of the cluster object: the one typed interface they call it through (ClusterObject
// implements it; the namespace side gets it from clusterApi(env), no casts).
import type { DaemonNode } from '../registry/daemon-placement'
import type { MetaV1LabelSelector } from '../registry/label-selector'
import type { PodSpec } from '../registry/strategies/pod/pod-types'
import type { Allocated, AllocationRequest, ReserveAnswer } from './allocators/allocation-types'
import type { Snapshot } from '../host/rpc-types'
import type { Rejection } from '../registry/kubelet-admission'

export type NamespacePhase = 'Active' | 'Terminating'

/** A reservation as its namespace checks it (the ledger's podKeysIn). */
export interface ReservedPod {
  key: string
  /** The ledger knows its labels. */
  described: boolean
  /** The ledger knows it has a deletionTimestamp. */
  terminating: boolean
}

/** What a namespace sends to have a pod scheduled. */
export interface ScheduleRequest {
  podKey: string
  ns: string
  spec: PodSpec
  /** The pod's labels (the InterPodAffinity filter matches pods by them). */
  labels?: Record<string, string>
  /**
   * For a pod with no spread constraints of its own, the selector of PodTopologySpread's system defaults (the Services
   * and controller selecting it, registry/default-spread-selector.ts); absent when there is none.
   */
  defaultSpreadSelector?: MetaV1LabelSelector
}

/** What the simulated kubelet needs to know about a node. */
export interface NodeFacts {
  name: string
  virtual: boolean
  hostIP: string
  podCIDR: string
  ready: boolean
  /** The node's status.features (the kubelet's admission of a Strict supplementalGroupsPolicy reads it). */
  features?: { supplementalGroupsPolicy?: boolean }
}

/** A pod the simulated kubelet is about to start, bound to `node` (by anyone: the scheduler or a client). */
export interface AdmitRequest extends ScheduleRequest {
  node: string
}

/**
 * The cluster's answer for a pod about to start on a virtual node: admitted, with its addresses; rejected by the
 * kubelet's admission (src/registry/kubelet-admission.ts); or null (no free address on its node, or the pod is bound
 * elsewhere now).
 */
export type PodAdmission = { addresses: PodAddresses } | { rejected: Rejection } | null

/** Where a pod on a node is reached: its own address and its node's. */
export interface PodAddresses {
  podIP: string
  hostIP: string
}

/**
 * A scheduling answer. A pod placed on a virtual node also gets its address in the same call, since the simulated
 * kubelet would ask for it next (one call per pod instead of two).
 */
export type Placement = { ok: true; node: string; addresses?: PodAddresses } | { ok: false; message: string }

/** A cluster-scoped owner an ownerReference in a namespace names: its stored resource key, name and uid. */
export interface ClusterOwnerRef {
  resource: string
  name: string
  uid: string
}

/** What the garbage collector reads of an owner (kube's metadata-only get). */
export interface OwnerMeta {
  deletionTimestamp?: string
  finalizers?: string[]
}

export interface ClusterApi {
  /** The phase of a namespace, or null when it does not exist. */
  namespacePhase(name: string): Promise<NamespacePhase | null>
  /** Picks a node for a pod and reserves its requests there (and its address, on a virtual node). */
  schedulePod(req: ScheduleRequest): Promise<Placement>
  /** schedulePod for several pods in one call, in order (a namespace retrying its waiting pods). */
  schedulePods(reqs: ScheduleRequest[]): Promise<Placement[]>
  /** Counts a pod bound elsewhere (created bound, or bound by POST binding) against its node. */
  assumePod(req: ScheduleRequest, node: string): Promise<void>
  /**
   * The simulated kubelet's admission of pods it is about to start and their addresses, in order: a pod bound
   * elsewhere is recorded (as assumePod) if it was not yet, and judged against the pods admitted on its node before it.
   */
  admitPods(reqs: AdmitRequest[]): Promise<PodAdmission[]>
  /** Returns a pod's node reservation and IP; `ended`: the pod is Succeeded/Failed, still on its node. */
  releasePod(podKey: string, ended?: boolean): Promise<boolean>
  /**
   * A bound pod's labels changed (pod affinity terms of other pods match the new ones); with `podAffinity`, a pod
   * bound before the ledger kept labels is described.
   */
  describePod(podKey: string, labels: Record<string, string>, podAffinity?: Record<string, unknown>): Promise<void>
  /** A bound pod got its deletionTimestamp: PodTopologySpread stops counting it. */
  podTerminating(podKey: string): Promise<void>
  /** The pods of a namespace holding a reservation, by pod key, and what the ledger knows of them. */
  reservedPods(ns: string): Promise<ReservedPod[]>
  nodeFacts(name: string): Promise<NodeFacts | null>
  /** The nodes DaemonSets place pods on; the namespace is told when they change (NamespaceApi.nodesChanged). */
  daemonNodeList(ns: string): Promise<DaemonNode[]>
  /** The namespace has no DaemonSets left: it need not hear of node changes. */
  unwatchNodes(ns: string): Promise<void>
  /** Reserves a service's cluster IPs and node ports for `owner` (`ns/name/uid`), all or none. */
  reserve(owner: string, request: AllocationRequest, dryRun: boolean): Promise<ReserveAnswer>
  /** Frees what `owner` holds of `what` (everything it holds when null). */
  release(owner: string, what: Allocated | null): Promise<Allocated>
  /**
   * Every object of some cluster-scoped resources (ObjectHost.snapshot), for a namespace's admission: `objects` is
   * null when `since` is still the version.
   */
  snapshot(resources: string[], since?: number): Promise<Snapshot>
  /**
   * The PriorityClasses and StorageClasses as a snapshot, for `ns`'s admission; `ns` is told when one changes
   * (NamespaceApi.classesChanged) before that change is answered.
   */
  classes(ns: string, since?: number): Promise<Snapshot>
  /**
   * The cluster-scoped owners `refs` name, each null when gone (or its name holds another uid). `ns` is recorded as
   * holding dependents of every present one, and hears when it goes or waits on the garbage collector
   * (NamespaceApi.clusterOwnerChanged).
   */
  clusterOwners(ns: string, refs: ClusterOwnerRef[]): Promise<(OwnerMeta | null)[]>
  /** No dependent in `ns` blocks these owners' deletion any more: one in foreground deletion may go. */
  clusterOwnersUnblocked(ns: string, uids: string[]): Promise<void>
  /** `ns` holds dependents kept for an owner kind nobody serves yet: it is told when a CRD changes. */
  awaitOwnerKinds(ns: string): Promise<void>
}

export const clusterApi = (env: Env): ClusterApi => env.CLUSTER.getByName('cluster')
