// What a host's kind of scope adds to the generic host (src/host/object-host.ts): admission, reservations outside the
// object, work after a commit and on the alarm. The namespace and cluster objects each provide one.
import type { ResourceDef } from '../registry/resource'
import type { Status } from '../registry/status'
import type { Change, LogEntry } from '../registry/store'
import type { KubeObject } from '../schema/meta'
import type { ParsedQuantity } from '../schema/quantity'
import type { ResourceQuota } from '../schema/resource-quota'

/**
 * The name a refusal of a create gives the object: its name, or its generateName before one is made (kube's
 * admission.NewForbidden takes it from the object through extractResourceName).
 */
export const nameForAdmission = (obj: KubeObject): string => obj.metadata?.name || obj.metadata?.generateName || ''

export interface HostPolicy {
  /** Create admission before the write is queued (may ask other objects); a Status refuses. */
  admitCreate(def: ResourceDef, name: string): Promise<Status | null>
  /** The same check at plan time, synchronously, so a create cannot slip past a change of mind. */
  admitCreateNow(def: ResourceDef, name: string): Status | null
  /** Cluster-scoped objects admission reads in a namespace (PriorityClasses, StorageClasses), as last fetched. */
  clusterObjects?(resource: string): KubeObject[]
  /**
   * A ResourceQuota's exact usage as of the last commit, read at plan time (src/namespace/quota-ledger.ts); absent,
   * admission charges against status.used.
   */
  quotaUsage?(
    quota: ResourceQuota,
    list: (resource: string) => KubeObject[],
    now: Date,
  ): Map<string, ParsedQuantity> | undefined
  /**
   * Runs for every planned change before it commits (dry runs too): reserves what the change needs outside this
   * object and may fill the results into change.object. A Status refuses; rollback undoes it when nothing commits.
   */
  beginChange?(
    def: ResourceDef,
    change: Change,
    dryRun: boolean,
  ): Promise<{ status?: Status; rollback?: () => Promise<void> }>
  /** Runs after a commit applied locally, before its writes are answered (releases, telling other objects). */
  afterApply?(entries: readonly LogEntry[]): Promise<void>
  /** Whether a controller still has work with an object (wake-ups look only at those). */
  needsAttention?(resource: string, obj: KubeObject): boolean
  /** The earliest time this policy needs the alarm, or null. */
  nextAlarmAt?(): number | null
  /** Alarm work of this policy. */
  onAlarm?(now: number): Promise<void>
}
