// The simulated kubelet's questions to the cluster object for pods its address book lacks (this object restarted
// since the scheduler placed them, or someone else bound them): the kubelet's admission of a pod bound elsewhere and
// the pod's address, in one answer (ClusterApi.admitPods). Steps run at once (a wake-up after a restart steps every
// pod due to start), so asking per pod would put one call per pod in flight together; instead the pods wait in one
// queue and are asked for in batches, one call at a time, at most MAX_BATCH pods a call, in the order asked (the
// order the kubelet admits them in). Pods whose address the book has never come here.
import type { AdmitRequest, ClusterApi, PodAdmission } from '../cluster/cluster-api'

/** Pods asked for in one call: bounds the call's size (and the time the cluster object spends on it). */
const MAX_BATCH = 256

type Waiter = { resolve(a: PodAdmission): void; reject(e: unknown): void }

export class PodIpRequests {
  /** Pods waiting for their next call, in the order asked (a pod asked for twice waits once). */
  private readonly queue = new Map<string, { req: AdmitRequest; waiters: Waiter[] }>()
  private sending = false

  constructor(
    private readonly cluster: () => ClusterApi,
    private readonly maxBatch = MAX_BATCH,
  ) {}

  /** The pod's admission and address (null: it has no binding there, or its node has no free address). */
  admissionOf(req: AdmitRequest): Promise<PodAdmission> {
    return new Promise((resolve, reject) => {
      const waiting = this.queue.get(req.podKey)
      if (waiting) waiting.waiters.push({ resolve, reject })
      else this.queue.set(req.podKey, { req, waiters: [{ resolve, reject }] })
      if (!this.sending) void this.send()
    })
  }

  /** Sends the queue in batches until it is empty; pods asked for while a call is under way go in the next one. */
  private async send(): Promise<void> {
    this.sending = true
    try {
      while (this.queue.size > 0) {
        const batch: { req: AdmitRequest; waiters: Waiter[] }[] = []
        for (const [key, entry] of this.queue) {
          if (batch.length === this.maxBatch) break
          batch.push(entry)
          this.queue.delete(key)
        }
        try {
          const answers = await this.cluster().admitPods(batch.map(({ req }) => req))
          batch.forEach(({ waiters }, i) => {
            for (const w of waiters) w.resolve(answers[i] ?? null)
          })
        } catch (e) {
          for (const { waiters } of batch) for (const w of waiters) w.reject(e)
        }
      }
    } finally {
      this.sending = false
    }
  }
}
