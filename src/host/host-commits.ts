// A host's write path from a planned job to its answer: the write queue, the commit to the change log, and what
// follows every commit, one made here or one caught up from the log (the local apply, expiries, watchers, commit
// listeners, the policy, the alarm, the controllers).
import type { ResourceDef } from '../registry/resource'
import { fail, statuses, type Result, type Status } from '../registry/status'
import type { LogEntry } from '../registry/store'
import { catchUp, recoverBatch } from './catch-up'
import { encodeAnswer } from './rpc-json'
import type { ChangeLog } from './change-log'
import type { Expiries } from './expiry'
import type { HostControllers } from './host-controllers'
import type { HostPolicy } from './host-policy'
import type { ObjectStore } from './object-store'
import type { WriteAnswer, WriteOptions } from './rpc-types'
import type { Watchers } from './watchers'
import type { VerbPlan } from './planning-host'
import { writeJob } from './write-job'
import { WriteQueue } from './write-queue'

/** The host's parts a commit goes through. */
interface CommitParts {
  scope: string
  objects: ObjectStore
  log: ChangeLog
  watchers: Watchers
  policy: HostPolicy
  expiries: Expiries
  controllers: HostControllers
  commitListeners: readonly ((entries: readonly LogEntry[]) => void)[]
  /** Sets the alarm for the earliest work owed (src/host/host-alarm.ts). */
  scheduleAlarm(): Promise<void>
}

export class HostCommits {
  readonly queue: WriteQueue
  /** The resourceVersion of each resource's last change applied since this wake-up (ObjectHost.snapshot). */
  readonly changedAt = new Map<string, number>()
  /** When the commit now in flight (commits never overlap) began: watch events are timed from it. */
  private commitStartedAt = 0

  constructor(private readonly parts: CommitParts) {
    const { objects, log, scope, expiries } = parts
    this.queue = new WriteQueue({
      catchUp: () => this.catchUp(),
      commit: (changes) => {
        this.commitStartedAt = Date.now()
        return log.commit(changes, this.commitStartedAt)
      },
      applied: (entries) => this.applied(entries, true),
      recover: (changes) => recoverBatch({ objects, log, scope }, changes),
      commitFailed: (e) => {
        console.error('commit to the change log failed', e)
        expiries.forget()
        return statuses.serviceUnavailable(
          `the change log is unavailable: ${e instanceof Error ? e.message : String(e)}`,
        )
      },
    })
  }

  /** Queues a verb's plan; a dry run plans against the same state but commits nothing. */
  write(def: ResourceDef, planner: () => VerbPlan, opts: WriteOptions): Promise<Result<WriteAnswer>> {
    const { policy, expiries } = this.parts
    const job = {
      beginChange: policy.beginChange?.bind(policy) ?? (async () => ({})),
      expect: expiries.expect.bind(expiries),
    }
    const answer = this.queue.submit<Result<WriteAnswer>>(
      async () => writeJob(job, def, planner(), opts),
      (answer) => fail(answer as Status),
    )
    return opts.encodeAnswer ? answer.then(encodeAnswer) : answer
  }

  /** Replays what the log holds past the applied mark (src/host/catch-up.ts), as commits made here are applied. */
  catchUp(): Promise<void> {
    const { objects, log, scope, watchers } = this.parts
    return catchUp({
      objects,
      log,
      scope,
      applied: (entries) => this.applied(entries, false),
      rebuilt: (oldest) => watchers.expireAll(oldest),
    })
  }

  /** Everything that follows a commit: the local apply, expiries, watchers, the policy, the alarm, controllers. */
  private async applied(entries: LogEntry[], committedHere: boolean): Promise<void> {
    const { objects, scope, expiries, watchers, policy } = this.parts
    objects.apply(entries.map((e) => ({ ...e, namespace: scope })))
    for (const e of entries) this.changedAt.set(e.resource, e.rv)
    const hadExpiry = expiries.record(entries)
    watchers.broadcast(entries, objects.currentRv, committedHere ? this.commitStartedAt : undefined)
    for (const listen of this.parts.commitListeners) listen(entries)
    // Entries replayed from the log at wake-up skip the policy: it talks to other objects, which may be waking too.
    if (committedHere) await policy.afterApply?.(entries)
    if (hadExpiry || policy.nextAlarmAt?.() != null) await this.parts.scheduleAlarm()
    this.parts.controllers.committed(entries)
  }
}
