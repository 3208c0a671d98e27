// kube's resource quota controller for one namespace (pkg/controller/resourcequota): every quota's status.hard
// mirrors spec.hard and status.used is the exact usage of the namespace's objects for each hard resource. kube
// recalculates on a resync; here the controller keeps each quota's usage in a ledger moved by the delta of every
// commit (src/namespace/quota-ledger.ts: a delete, a pod turning Succeeded or Failed, a claim resized, a create) and
// writes status.used whenever it differs, so used is exact soon after each commit at the cost of the commit's
// entries, not of the namespace. Creates are charged already by admission, in the create's own commit
// (src/host/admission-plans.ts), from status.used plus the object's usage.
import type { Controller, ControllerHost } from '../host/controller'
import { formatQuantity, parseQuantity } from '../schema/quantity'
import type { Usage } from '../registry/quota/quota-usage'
import type { LogEntry } from '../registry/store'
import type { KubeObject } from '../schema/meta'
import type { ResourceQuota } from '../schema/resource-quota'
import { cmpQuantity } from '../registry/strategies/pod/pod-validation-quantities'
import type { QuotaLedger } from './quota-ledger'

const QUOTAS = 'resourcequotas'
/** kube-controller-manager's controllers write under this manager. */
const MANAGER = 'kube-controller-manager'

type Used = Record<string, string | number>

/** The status kube's syncResourceQuota writes: hard from the spec, used from the ledger, masked to hard. */
function quotaStatus(rq: ResourceQuota, usage: Usage) {
  const hard = { ...(rq.spec?.hard ?? {}) }
  const used: Used = { ...(rq.status?.used ?? {}) }
  for (const [k, v] of usage) used[k] = formatQuantity(v)
  for (const k of Object.keys(used)) if (!(k in hard)) delete used[k]
  return { hard, used }
}

/** Equal quantities are equal however written (admission's sums and the ledger's may differ in form, not value). */
function sameQuantities(a: Used, b: Used): boolean {
  const keys = Object.keys(a)
  if (keys.length !== Object.keys(b).length) return false
  return keys.every((k) => {
    if (!(k in b)) return false
    if (a[k] === b[k]) return true
    const x = parseQuantity(a[k]!)
    const y = parseQuantity(b[k]!)
    return x !== null && y !== null && cmpQuantity(x, y) === 0
  })
}

export class ResourceQuotaController implements Controller {
  readonly name = 'resourcequota-controller'

  constructor(private readonly ledger: QuotaLedger) {
    ledger.follow()
  }

  async onCommitted(entries: readonly LogEntry[], host: ControllerHost): Promise<void> {
    const quotas = host.all(QUOTAS).map((s) => s.object as ResourceQuota)
    if (quotas.length === 0) return
    // Synchronously, before anything else commits: the ledger must see every commit once and in order, and what it
    // counts now is the state this commit left. Only quotas whose status differs get a write.
    if (!this.ledger.committed(entries, quotas, new Date())) return
    await this.sync(
      host,
      quotas.filter((q) => this.statusFor(q, host) !== null),
    )
  }

  async resync(host: ControllerHost, now: number): Promise<void> {
    this.ledger.expire(now)
    await this.sync(
      host,
      host.all(QUOTAS).map((s) => s.object as ResourceQuota),
    )
  }

  /** The status to write for a quota as stored, or null when it has it already (or is being deleted). */
  private statusFor(q: ResourceQuota, host: ControllerHost) {
    if (q.metadata?.deletionTimestamp) return null
    const status = quotaStatus(
      q,
      this.ledger.usage(q, (r) => host.all(r).map((s) => s.object), new Date()),
    )
    if (same(status.hard, q.status?.hard ?? {}) && sameQuantities(status.used, q.status?.used ?? {})) return null
    return status
  }

  private async sync(host: ControllerHost, quotas: ResourceQuota[]) {
    for (const rq of quotas) {
      // Decided against the newest state when the write is planned, when the ledger has seen every commit so far
      // (so a create charged meanwhile is counted, and a count made then is exact).
      await host.update(
        QUOTAS,
        rq.metadata?.name ?? '',
        (current) => {
          const status = this.statusFor(current as ResourceQuota, host)
          return status ? ({ ...current, status } as KubeObject) : null
        },
        { subresource: 'status', fieldManager: MANAGER },
      )
    }
    // A pod being deleted stops counting once its grace period has run out (QuotaV1Pod); nothing commits then, so
    // the controller asks to be woken (resync runs on alarms), as kube's periodic resync would catch it.
    const next = this.ledger.nextDeadline(Date.now())
    if (next !== null) await host.wakeAt(next + 1000)
  }
}

const same = (a: Record<string, unknown>, b: Record<string, unknown>) =>
  Object.keys(a).length === Object.keys(b).length && Object.keys(a).every((k) => k in b && a[k] === b[k])
