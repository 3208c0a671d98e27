// Controllers run inside a host, driven by its own commits and by its alarm (never by polling), and write through the
// host's verbs like any client (kube's controllers write through the API): strategies, admission, validation and
// managedFields apply to their writes, and an update's read-modify-write runs next to the state, where it cannot
// conflict.
import type { LogEntry, Stored } from '../registry/store'
import type { Result } from '../registry/status'
import type { DeleteOptions, KubeObject } from '../schema/meta'
import type { OwnerRow } from './object-store'
import type { WriteAnswer, WriteOptions } from './rpc-types'

/**
 * A change to make to the current object (a copy, free to edit): the object to write, or null for none. It runs
 * when the write is planned, against the newest state, so there is nothing to retry (kube's GuaranteedUpdate).
 */
export type Mutation = (current: KubeObject) => KubeObject | null

/**
 * What a level-triggered controller wants of one object, decided against its newest state (null: it is absent) when
 * the write is planned: create it, replace it, delete it, or leave it (null).
 */
export type Desired = { create: KubeObject } | { update: KubeObject } | { delete: DeleteOptions } | null

/** What a controller may do with the host it runs in. */
export interface ControllerHost {
  readonly scope: string
  get(resource: string, name: string): Stored | null
  all(resource: string): Stored[]
  /** Every object's name and labels, in name order (matching a selector without reading whole objects). */
  labelsOf(resource: string): { name: string; labels: Record<string, string> }[]
  /** The names of the objects labelled key=value (the label index). */
  namesWithLabel(resource: string, key: string, value: string): string[]
  /** The objects of a resource a controller still has work with (see HostPolicy.needsAttention). */
  attending(resource: string): Stored[]
  /** Objects whose ownerReferences name this uid. */
  dependents(uid: string): { resource: string; name: string }[]
  /** Every owner (uid, apiVersion, kind, name) that objects here name. */
  owners(): OwnerRow[]
  /** The resources with objects on the attention list (stored keys: kinds this isolate may not have loaded yet). */
  attendedResources(): string[]
  /**
   * Makes sure the kind table holds the kind `apiVersion` and `kind` name, if it is served (a custom kind is loaded
   * lazily per isolate): what resolves an ownerReference, as kube's garbage collector's RESTMapper does.
   */
  knowKindOf(apiVersion: string, kind: string): Promise<void> | undefined
  /** POST, exactly as a client's. */
  create(resource: string, obj: KubeObject, opts?: WriteOptions): Promise<Result<WriteAnswer>>
  /**
   * PUT of `mutate(current)` (through `opts.subresource` when given): 404 when the object is gone, null when the
   * mutation declines to change it.
   */
  update(resource: string, name: string, mutate: Mutation, opts?: WriteOptions): Promise<Result<WriteAnswer | null>>
  /** Whichever write `decide` asks for, planned against the newest state (null answer: nothing was written). */
  reconcile(
    resource: string,
    name: string,
    decide: (current: KubeObject | null) => Desired,
    opts?: WriteOptions,
  ): Promise<Result<WriteAnswer | null>>
  /** DELETE, exactly as a client's. */
  delete(resource: string, name: string, options?: DeleteOptions, opts?: WriteOptions): Promise<Result<WriteAnswer>>
  /** Asks for a wake-up at `at` (ms since epoch); the host keeps the earliest. */
  wakeAt(at: number): Promise<void>
}

export interface Controller {
  readonly name: string
  /**
   * Runs after every commit of the host, outside the commit (a controller's own writes are queued behind it).
   * Controllers are level-triggered: they compute the desired state from what is stored, not from the entries alone.
   */
  onCommitted?(entries: readonly LogEntry[], host: ControllerHost): Promise<void>
  /** Runs when the host wakes up and on alarms: reconcile everything this controller owns. */
  resync?(host: ControllerHost, now: number): Promise<void>
}
