// The workload controllers' retries of refused creates (a pod refused by a ResourceQuota, a LimitRange, a missing
// PriorityClass, a bad template; a Deployment's ReplicaSet, a CronJob's Job): kube's controllers hand such an owner
// back to their workqueue with AddRateLimited, whose limiter (DefaultTypedControllerRateLimiter) is the larger of a
// per-item exponential backoff (5 ms doubling to 1000 s) and an overall bucket (10 per second, bursts of 100); a
// sync that makes everything it wanted Forgets the owner. Here the waiting owners are a controller of their own,
// woken by the namespace object's alarm for the earliest of them and running only those due, so an alarm costs in
// proportion to the owners waiting. It also retries them all at once when a commit could unblock them (a
// ResourceQuota or LimitRange written, a pod deleted or finished): kube waits for the backoff alone, which only
// changes when the missing objects appear, not which. Kept in memory: a new isolate's wake-up resyncs every
// controller, which finds the refused creates again.
import type { Controller, ControllerHost } from '../host/controller'
import type { Status } from '../registry/status'
import type { LogEntry } from '../registry/store'
import type { KubeObject } from '../schema/meta'
import { parseQuantity } from '../schema/quantity'
import { deepEqual } from '../registry/deep-equal'
import { cmpQuantity } from '../registry/strategies/pod/pod-validation-quantities'

/** A workqueue's rate limiter: a per-owner exponential backoff, with or without the overall bucket. */
interface Limiter {
  baseMs: number
  maxMs: number
  bucket: boolean
}

/** DefaultTypedControllerRateLimiter: 5 ms doubling to 1000 s, and the bucket. */
const CONTROLLER_LIMITER: Limiter = { baseMs: 5, maxMs: 1000 * 1000, bucket: true }
/** The Job controller's own queue: 1 s doubling to a minute, no bucket (DefaultJobApiBackOff, MaxJobApiBackOff). */
export const JOB_LIMITER: Limiter = { baseMs: 1000, maxMs: 60 * 1000, bucket: false }
const BUCKET_QPS = 10
const BUCKET_BURST = 100

/** rate.Limiter's Reserve over the whole queue: a token per retry, the delay until the reserved one exists. */
class Bucket {
  private tokens = BUCKET_BURST
  private last = 0

  reserve(now: number): number {
    this.tokens = Math.min(BUCKET_BURST, this.tokens + ((now - this.last) / 1000) * BUCKET_QPS)
    this.last = now
    this.tokens -= 1
    return this.tokens >= 0 ? 0 : (-this.tokens / BUCKET_QPS) * 1000
  }
}

/**
 * A refusal no retry can get past, which kube's controllers neither report nor requeue: the namespace is being
 * terminated (HasStatusCause NamespaceTerminating) or is gone.
 */
export function namespaceClosed(status: Status): boolean {
  const details = status.details
  if (details?.causes?.some((c) => c.reason === 'NamespaceTerminating')) return true
  return status.code === 404 && details?.kind === 'namespaces'
}

/** Whether a committed change could let a refused create through. */
function unblocks(e: LogEntry): boolean {
  if (e.resource === 'limitranges') return true
  if (e.resource === 'resourcequotas') return e.type !== 'MODIFIED' || !e.prev || quotaLoosened(e.prev, e.object)
  if (e.resource !== 'pods') return false
  return e.type === 'DELETED' || (finished(e.object) && !!e.prev && !finished(e.prev))
}

/**
 * A quota update that can make room: its spec changed (hard, scopes), the controller wrote a new status.hard (what
 * admission enforces), or some usage fell. The status every charged create writes only uses room up, and retrying
 * on it would retry every waiting owner at each write.
 */
function quotaLoosened(prev: KubeObject, next: KubeObject): boolean {
  if (!deepEqual(prev.spec, next.spec)) return true
  const hard = (q: KubeObject) => (q.status as { hard?: Record<string, string> } | undefined)?.hard
  if (!deepEqual(hard(prev), hard(next))) return true
  const before = (prev.status as { used?: Record<string, string> } | undefined)?.used ?? {}
  const after = (next.status as { used?: Record<string, string> } | undefined)?.used ?? {}
  return Object.entries(before).some(([k, v]) => {
    const was = parseQuantity(v)
    const now = after[k] === undefined ? null : parseQuantity(after[k])
    return was === null || now === null || cmpQuantity(now, was) < 0
  })
}

const finished = (pod: KubeObject | undefined) => {
  const phase = (pod as { status?: { phase?: string } } | undefined)?.status?.phase
  return phase === 'Succeeded' || phase === 'Failed'
}

export class CreateRetries implements Controller {
  readonly name = 'create-retries'
  /** Failures so far per owner, kept until a sync of it succeeds (its next failure waits longer). */
  private readonly failures = new Map<string, number>()
  /** Owners waiting for their retry, and when. */
  private readonly pending = new Map<string, { at: number; run: () => Promise<void> }>()
  /**
   * Owners whose retry is running, and whether a commit that could unblock them came meanwhile (a quota's new
   * status.hard committing after the retry planned its create): a failure then retries again at once.
   */
  private readonly running = new Map<string, boolean>()
  private readonly bucket = new Bucket()
  /** This controller's own view of the host: a wake-up asked through it resyncs this controller alone. */
  private view: ControllerHost | null = null

  /**
   * The sync of `key` (`<resource>/<name>`) had a create refused: `run` syncs it again after its backoff. `host` is
   * the caller's view, used for the wake-up only until this controller has seen its own. With `maxRetries` (kube's
   * deployment controller drops a key requeued 15 times) the failure after those is not retried and the count is
   * forgotten.
   */
  async failed(
    key: string,
    run: () => Promise<void>,
    host: ControllerHost,
    opts: { now?: number; maxRetries?: number; limiter?: Limiter } = {},
  ): Promise<void> {
    const now = opts.now ?? Date.now()
    const failures = this.failures.get(key) ?? 0
    if (opts.maxRetries !== undefined && failures >= opts.maxRetries) {
      // handleErr past maxRetries: utilruntime.HandleError and queue.Forget. The owner is not requeued and its count
      // starts again from 0: the next event for it (its own, its ReplicaSets', its pods') syncs it afresh, and a
      // failure then backs off from 5 ms. A retry already waiting keeps its time, as kube's delayed add does.
      this.failures.delete(key)
      return
    }
    this.failures.set(key, failures + 1)
    if (this.running.get(key)) {
      this.running.set(key, false)
      void run()
      return
    }
    const limiter = opts.limiter ?? CONTROLLER_LIMITER
    const backoff = Math.min(limiter.baseMs * 2 ** failures, limiter.maxMs)
    const at = now + (limiter.bucket ? Math.max(backoff, this.bucket.reserve(now)) : backoff)
    const earlier = this.pending.get(key)
    if (earlier && earlier.at <= at) return
    this.pending.set(key, { at, run })
    await (this.view ?? host).wakeAt(at)
  }

  /** The sync of `key` made everything it wanted, or its owner is gone: kube's Forget. */
  forget(key: string): void {
    this.failures.delete(key)
    this.pending.delete(key)
  }

  /** How many owners wait for a retry (tests, metrics). */
  get waiting(): number {
    return this.pending.size
  }

  async onCommitted(entries: readonly LogEntry[], host: ControllerHost): Promise<void> {
    this.view = host
    if (!entries.some(unblocks)) return
    for (const key of this.running.keys()) this.running.set(key, true)
    if (this.pending.size > 0) await this.runDue('all')
  }

  async resync(host: ControllerHost, now: number): Promise<void> {
    this.view = host
    await this.runDue(now)
    const next = Math.min(...[...this.pending.values()].map((p) => p.at))
    if (Number.isFinite(next)) await host.wakeAt(next)
  }

  /** Runs the retries due by `now` (or all of them); one that fails again comes back through `failed`. */
  private async runDue(now: number | 'all'): Promise<void> {
    const due = [...this.pending].filter(([, p]) => now === 'all' || p.at <= now)
    for (const [key] of due) {
      this.pending.delete(key)
      this.running.set(key, false)
    }
    await Promise.all(
      due.map(async ([key, p]) => {
        try {
          await p.run()
        } finally {
          this.running.delete(key)
        }
      }),
    )
  }
}
