// Controllers that run inside a host, driven by its own commits (never by polling): endpoints, replication, the
// scheduler and the simulated kubelet plug in here.
import type { LogEntry } from '../log/d1-log'
import type { Change, Stored } from '../registry/store'
import type { Result } from '../registry/status'
import type { KubeObject } from '../schema/meta'
import type { WriteAnswer } from './rpc-types'

/** What a controller may do with the host it runs in. */
export interface ControllerHost {
  readonly scope: string
  readonly env: Env
  get(resource: string, name: string): Stored | null
  all(resource: string): Stored[]
  /** The objects of a resource a controller still has work with (see StoreHost.needsAttention). */
  attending(resource: string): Stored[]
  /** Objects whose ownerReferences name this uid. */
  dependents(uid: string): { resource: string; name: string }[]
  /** Every owner (uid, kind, name) that objects here name. */
  owners(): { uid: string; kind: string; name: string }[]
  /** Queues an internal write; `plan` sees the current object and answers the change, or null for none. */
  write(resource: string, name: string, plan: (current: Stored | null) => Change | null): Promise<LogEntry | null>
  /**
   * Creates through the host's create verb, exactly as a client's create (admission, defaults, validation,
   * reservations such as cluster IPs, managedFields under `fieldManager`).
   */
  create(resource: string, obj: KubeObject, fieldManager: string): Promise<Result<WriteAnswer>>
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
