// What a host is composed of: its scope, its parts (each an interface with a Durable Object implementation and an
// in-memory twin: src/host/durable-parts.ts, test/support/memory-host.ts) and the policy its kind of scope adds.
import type { LogEntry } from '../registry/store'
import type { Alarms } from './alarms'
import type { ChangeLog } from './change-log'
import type { Controller } from './controller'
import type { HostPolicy } from './host-policy'
import type { LocalState } from './object-store'
import type { Watchers } from './watchers'

export interface HostParts {
  /** '' for the cluster scope, the namespace name otherwise. */
  scope: string
  local: LocalState
  log: ChangeLog
  watchers: Watchers
  alarms: Alarms
  policy: HostPolicy
  controllers: readonly Controller[]
  /** Effects of every commit beyond this host (poking the cluster-wide watch hub, compacting the log). */
  commitListeners?: readonly ((entries: readonly LogEntry[]) => void)[]
  /** The object's metrics (src/host/durable-metrics.ts); in-memory hosts have none. */
  metrics?: { socketsChanged(): void }
  /**
   * Makes sure the kind table knows `resource` before a verb serves it (custom resources arrive at run time: see
   * src/registry/custom/custom-kinds.ts). Answers nothing when nothing needs awaiting.
   */
  knowKind?: (resource: string) => Promise<void> | undefined
  /** The same for a kind named by apiVersion and Kind (an ownerReference's owner). */
  knowKindOf?: (apiVersion: string, kind: string) => Promise<void> | undefined
}
