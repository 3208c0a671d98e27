// The local state a host keeps for its scope, as small interfaces: the objects with their indexes and recent history
// (ObjectStore), its bookkeeping (HostState), creation tokens (TokenStore) and due removals (ExpiryStore). Each has a
// Durable Object implementation over the object's SQLite (sql-*.ts) and an in-memory twin (memory-*.ts) that the unit
// tests run through the same case suites.
import type { ListSource } from '../registry/list'
import type { Stored } from '../registry/store'
import type { KubeObject } from '../schema/meta'
import type { LogEntry } from '../registry/store'

/** The current objects of one scope, their label/owner/attention indexes and a bounded history of changes. */
export interface ObjectStore {
  /** The newest resourceVersion applied here: every change to this scope up to it is reflected. */
  readonly currentRv: number
  /** Snapshots and watch replays from below this resourceVersion need the change log. */
  readonly historyFloor: number
  get(resource: string, name: string): Stored | null
  exists(resource: string, name: string): boolean
  /** Every object of a resource, in name order. */
  all(resource: string): Stored[]
  /** Every object's name and labels, in name order: what a selector is matched against, without reading objects. */
  labelsOf(resource: string): { name: string; labels: Record<string, string> }[]
  /** The names of the objects carrying the label key=value, in name order (through the label index). */
  namesWithLabel(resource: string, key: string, value: string): string[]
  names(resource: string): string[]
  /** Resources with at least one object here. */
  resources(): string[]
  /** Objects a controller still has work with (what a wake-up must look at; the rest are settled). */
  attending(resource: string): Stored[]
  /** Recomputes the attention list from every object (after its meaning changed). */
  rebuildAttention(): void
  /** The objects naming `uid` in their ownerReferences. */
  dependents(uid: string): { resource: string; name: string }[]
  /** Every owner (uid, apiVersion, kind, name) some object here names. */
  owners(): OwnerRow[]
  /** The resources with objects on the attention list. */
  attendedResources(): string[]
  /**
   * The Node authorizer's graph edges leaving vertex (type, namespace, name) ('' namespace: this scope's own), held by
   * objects here (src/registry/node-graph/graph-edges.ts); with `node`, only one bound to that node, if any.
   */
  graphEdgesFrom(type: string, namespace: string, name: string, node?: string): GraphEdgeRow[]
  /**
   * Applies committed changes (in rv order) atomically. Entries at or below the applied mark are skipped, so
   * applying the same commit twice (catch-up after a crash) is harmless.
   */
  apply(entries: readonly LogEntry[]): void
  /** Replaces everything with a full copy at `atRv` (when this host fell behind the compacted log). */
  reset(objects: { resource: string; name: string; rv: number; object: KubeObject }[], atRv: number): void
  /** Records a resourceVersion learned without a change here. */
  advance(rv: number): void
  /** Changes after `afterRv` from local history, in order (callers check historyFloor first). */
  historySince(afterRv: number, limit?: number): LogEntry[]
  /** A consistent-snapshot list source over one resource. */
  listSource(resource: string): ListSource
}

/** An owner as an ownerReference names it: its kind is resolved by group and kind (apiVersion + kind), as kube's. */
export interface OwnerRow {
  uid: string
  apiVersion: string
  kind: string
  name: string
}

/** A graph edge as the store answers it: the object holding it and the node it is bound to ('' for none). */
export interface GraphEdgeRow {
  resource: string
  name: string
  node: string
}

/** Small durable key/value bookkeeping (phase, flags, counters). */
export interface HostState {
  get(key: string): string | undefined
  /** undefined removes the key. */
  set(key: string, value: string | undefined): void
}

/** Which create a creation token (Idempotency-Key) produced; kept at least CREATION_TOKEN_TTL_MS. */
export interface TokenStore {
  find(token: string): { resource: string; name: string; uid: string } | null
  /** Records the token (the first record wins) and forgets tokens older than the time to live. */
  record(token: string, resource: string, name: string, uid: string, now: number): void
}

/** When objects fall due for removal (graceful deletion, time to live). */
export interface ExpiryStore {
  set(resource: string, name: string, at: number): void
  due(now: number): { resource: string; name: string }[]
  clear(resource: string, name: string): void
  /** The earliest due time, or null. */
  next(): number | null
}

/** Everything a host keeps locally. */
export interface LocalState {
  objects: ObjectStore
  state: HostState
  tokens: TokenStore
  expiries: ExpiryStore
}

/** How long a creation token is remembered: the contract is "at least 24 hours". */
export const CREATION_TOKEN_TTL_MS = 25 * 60 * 60 * 1000

/** Whether a controller still has work with an object (such objects are in the attention list). */
export type Attend = (resource: string, obj: KubeObject) => boolean
