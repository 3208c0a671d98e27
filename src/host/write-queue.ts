// The per-Durable-Object write queue with group commit. Awaiting D1 opens a DO's input gate, so writes are
// serialized here explicitly; every flush plans the queued jobs against the local state, commits all their changes
// in one D1 batch, then applies them locally and resolves the jobs.
import type { Change } from '../registry/store'
import { withRv } from '../registry/store'
import type { LogEntry } from '../registry/store'
import { isSealed } from '../registry/at-rest'
import { materialize } from '../registry/stored-json'

/** What a job plans: the changes to commit (possibly none) and how to answer once they have resourceVersions. */
export interface JobPlan<R> {
  changes: Change[]
  finish(entries: LogEntry[]): R
  /** Undoes what planning reserved outside this object (allocated IPs, ports) when the changes are not committed. */
  rollback?(): Promise<void>
}

interface Job<R> {
  plan(): JobPlan<R> | Promise<JobPlan<R>>
  resolve(r: R): void
  reject(e: unknown): void
  /** Turns a failed commit's answer into this job's result; without it the job's promise rejects. */
  failWith?: (answer: unknown) => R
}

/** A job and what it planned, on its way into a batch. */
type Planned = { job: Job<unknown>; plan: JobPlan<unknown> }

function settleFailed<R>(job: Job<R>, answer: unknown) {
  if (job.failWith) job.resolve(job.failWith(answer))
  else job.reject(answer)
}

export interface WriteQueueHooks {
  /** Runs before a flush when an earlier commit failed in a way that may have half-reached D1. */
  catchUp(): Promise<void>
  /** Commits changes to D1 in one transaction; returns their resourceVersions in order. */
  commit(changes: Change[]): Promise<number[]>
  /** Applies committed entries locally (synchronously) and lets watchers and controllers see them. */
  applied(entries: LogEntry[]): Promise<void> | void
  /**
   * After a commit threw, reads the log to learn whether the batch landed anyway (a lost answer): its
   * resourceVersions if it did, null if it did not; throws when the log cannot tell either.
   */
  recover(changes: Change[]): Promise<number[] | null>
  /** Turns a failed commit into the answer every job of the batch gets (resolved, not thrown: RPC drops errors). */
  commitFailed(error: unknown): unknown
}

/** Big enough to amortize a D1 round trip, small enough to stay far from D1's statement and time limits. */
const MAX_BATCH = 64

/**
 * How long a flush lingers for company once writes have been seen to overlap. Writers spread over many namespaces
 * reach each namespace's queue one at a time, so without a linger every write pays a whole D1 batch; 5 ms gathers
 * about 3 writes per batch there instead of 1.1 (README, Performance). A lone writer never waits.
 */
const LINGER_MS = 5

/**
 * A committed change's object, as a read of it would give it: parsed from the JSON its commit stored (in Go's field
 * order, with resourceVersion put back in its place), so the answer, the watch events and the Worker's encoding of
 * them take the native encoder's fast path instead of writing a planned object field by field. A sealed object
 * (encrypted at rest) keeps the planned one: opening it again would cost more than the fast path saves.
 */
function committedObject(c: Change, rv: number) {
  const text = c.text?.object
  return text !== undefined && !isSealed(text) ? materialize(text, rv) : withRv(c.object, rv)
}

export class WriteQueue {
  private pending: Job<unknown>[] = []
  private running: Promise<void> | null = null
  private suspect = false
  /** Writes overlap: the last flush carried several jobs, or a job was queued while its batch was committing. */
  private overlapping = false
  /** A batch is between planning and its answers (a write queued now arrived while others were in flight). */
  private committing = false

  constructor(
    private readonly hooks: WriteQueueHooks,
    private readonly lingerMs = LINGER_MS,
  ) {}

  /** Queues a job; plan() runs later, in queue order, against the state every earlier job left. */
  submit<R>(plan: () => JobPlan<R> | Promise<JobPlan<R>>, failWith?: (answer: unknown) => R): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.pending.push({ plan, resolve: resolve as (r: unknown) => void, reject, failWith } as Job<unknown>)
      if (this.committing) this.overlapping = true
      this.kick()
    })
  }

  private kick() {
    if (this.running) return
    this.running = this.drain().finally(() => {
      this.running = null
      // A job may have been queued after the drain loop's last look and before this ran: do not strand it.
      if (this.pending.length > 0) this.kick()
    })
  }

  /** Resolves once every job queued so far has finished. */
  async idle(): Promise<void> {
    while (this.running) await this.running
  }

  /** Forces a catch-up before the next flush (a commit failed, or the DO suspects it missed changes). */
  markSuspect() {
    this.suspect = true
  }

  private async drain() {
    while (this.pending.length > 0) {
      if (this.suspect) {
        try {
          await this.hooks.catchUp()
          this.suspect = false
        } catch (e) {
          for (const job of this.pending.splice(0)) settleFailed(job, this.hooks.commitFailed(e))
          return
        }
      }
      // Under load (a flush just ran), give writes already on their way time to join this batch: one D1 round trip
      // then carries several of them. Only overlapping writers linger; a lone writer's next write goes at once.
      if (this.pending.length < MAX_BATCH && Date.now() - this.lastFlush < 50) {
        const linger = this.overlapping || this.pending.length > 1 ? this.lingerMs : 0
        await new Promise((r) => setTimeout(r, linger))
      }
      this.overlapping = false
      const jobs = await this.flush()
      if (jobs > 1) this.overlapping = true
      this.lastFlush = Date.now()
    }
  }

  private lastFlush = 0

  /** Plans, commits and answers one batch; answers how many jobs it carried. */
  private async flush(): Promise<number> {
    const batch: Planned[] = []
    const touched = new Set<string>()
    while (this.pending.length > 0 && batch.length < MAX_BATCH) {
      const job = this.pending[0]!
      let plan: JobPlan<unknown>
      try {
        plan = await job.plan()
      } catch (e) {
        this.pending.shift()
        job.reject(e)
        continue
      }
      const keys = plan.changes.map((c) => `${c.resource}/${c.namespace}/${c.name}`)
      // A second change to an object already in this batch waits for the next one, where it sees the first's result.
      if (batch.length > 0 && keys.some((k) => touched.has(k))) {
        await plan.rollback?.().catch((e: unknown) => console.error('rollback failed', e))
        break
      }
      this.pending.shift()
      for (const k of keys) touched.add(k)
      batch.push({ job, plan })
    }
    const changes = batch.flatMap((b) => b.plan.changes)
    this.committing = true
    try {
      return await this.commitBatch(batch, changes)
    } finally {
      this.committing = false
    }
  }

  private async commitBatch(batch: Planned[], changes: Change[]): Promise<number> {
    let entries: LogEntry[] = []
    if (changes.length > 0) {
      let rvs: number[]
      try {
        rvs = await this.hooks.commit(changes)
      } catch (e) {
        // A timeout may still have committed. Answering 503 for a write that landed would release reservations
        // (cluster IPs, node ports) its object holds and leave its creation token unclaimed, so ask the log first.
        let landed: number[] | null | undefined
        try {
          landed = await this.hooks.recover(changes)
        } catch (err) {
          console.error('could not tell whether a failed commit landed', err)
        }
        if (landed) {
          rvs = landed
        } else {
          if (landed === undefined) this.suspect = true
          const answer = this.hooks.commitFailed(e)
          this.committing = false
          for (const b of batch) {
            // Unknown outcome: keep the reservations. A leaked IP is recoverable; two Services on one IP are not.
            if (landed === null)
              await b.plan.rollback?.().catch((err: unknown) => console.error('rollback failed', err))
            settleFailed(b.job, answer)
          }
          return batch.length
        }
      }
      entries = changes.map((c, i) => ({
        rv: rvs[i]!,
        type: c.type,
        resource: c.resource,
        namespace: c.namespace,
        name: c.name,
        object: committedObject(c, rvs[i]!),
        prev: c.prev && c.prevRv !== null ? withRv(c.prev, c.prevRv) : c.prev,
        prevRv: c.prevRv,
        text: c.text,
      }))
      try {
        await this.hooks.applied(entries)
      } catch (e) {
        this.suspect = true
        console.error('applying committed changes failed; will catch up from the log', e)
      }
    }
    // From here on a queued write follows an answer rather than overlapping this batch.
    this.committing = false
    let at = 0
    for (const b of batch) {
      const mine = entries.slice(at, at + b.plan.changes.length)
      at += b.plan.changes.length
      try {
        b.job.resolve(b.plan.finish(mine))
      } catch (e) {
        b.job.reject(e)
      }
    }
    return batch.length
  }
}
