// Turning a verb's plan into a write-queue job: reservations outside the object (a policy's beginChange) after
// validation, a dry run's answer, a graceful deletion's removal time, and the answer once the change commits.
import type { Change, LogEntry } from '../registry/store'
import { fail, ok, type Result, type Status } from '../registry/status'
import { resourceKey, type ResourceDef } from '../registry/resource'
import type { VerbPlan } from './planning-host'
import type { WriteAnswer, WriteOptions } from './rpc-types'
import type { JobPlan } from './write-queue'

/** What turning a plan into a queued job needs from the host. */
interface JobHost {
  /** See HostPolicy.beginChange (src/host/host-policy.ts). */
  beginChange(
    def: ResourceDef,
    change: Change,
    dryRun: boolean,
  ): Promise<{ status?: Status; rollback?: () => Promise<void> }>
  /** Records a graceful deletion's removal time, set once the change applies. */
  expect(resource: string, name: string, removeAt: number): void
}

/**
 * Turns a verb's plan into a write-queue job. A dry run plans against the same state but commits nothing; the
 * would-be object is answered without a resourceVersion.
 */
export async function writeJob(
  host: JobHost,
  def: ResourceDef,
  { plan, removeAt, also = [] }: VerbPlan & { also?: Change[] },
  opts: WriteOptions,
): Promise<JobPlan<Result<WriteAnswer>>> {
  if (!plan.ok) return { changes: [], finish: () => plan }
  const { change, object, created, declined, pending } = plan.value
  let rollback: (() => Promise<void>) | undefined
  if (change) {
    // Reservations outside this object (cluster-wide IPs and ports) happen after validation, as kube's
    // BeginCreate/BeginUpdate hooks do, and are undone if the change does not commit.
    const begun = await host.beginChange(def, change, opts.dryRun ?? false)
    if (begun.status) return { changes: [], finish: () => fail<WriteAnswer>(begun.status!) }
    rollback = begun.rollback
  }
  if (opts.dryRun || change === null) {
    const answer = change?.object ?? object
    // A dry run answers what the write would have: kube's dry-run storage keeps the resourceVersion the change was
    // planned against (so `kubectl diff --server-side` sees no difference), and a create has none yet.
    if (opts.dryRun && change) {
      if (change.prevRv !== null) answer.metadata.resourceVersion = String(change.prevRv)
      else delete answer.metadata.resourceVersion
    }
    await rollback?.()
    const unchanged = !opts.dryRun && !declined
    return {
      changes: [],
      finish: () =>
        ok(
          declined
            ? { object: answer, declined }
            : unchanged
              ? { object: answer, created, unchanged, ...(pending ? { pending } : {}) }
              : { object: answer, created, ...(pending ? { pending } : {}) },
        ),
    }
  }
  if (removeAt !== undefined) host.expect(resourceKey(def), change.name, removeAt)
  return {
    // The main change first (the answer is its entry), then what admission charged along with it (quota usage).
    changes: [change, ...also],
    finish: (entries: LogEntry[]) => ok({ object: entries[0]!.object, created, ...(pending ? { pending } : {}) }),
    rollback,
  } satisfies JobPlan<Result<WriteAnswer>>
}
