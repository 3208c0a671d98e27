// The simulated kubelet's questions to the cluster object for pod addresses its address book lacks (this object
// restarted since the scheduler placed the pods, or someone else bound them). Steps run at once (a wake-up after a
// restart steps every pod due to start), so asking per pod would put one call per pod in flight together; instead
// the pods wait in one queue and are asked for in batches, one call at a time, at most MAX_BATCH pods a call, as the
// kubelet's node questions are one at a time per node. Pods whose address the book has never come here.
import type { ClusterApi, PodAddresses } from '../cluster/cluster-api'

/** Pods asked for in one call: bounds the call's size (and the time the cluster object spends on it). */
const MAX_BATCH = 256

type Waiter = { resolve(a: PodAddresses | null): void; reject(e: unknown): void }

export class PodIpRequests {
  /** Pods waiting for their next call, in the order asked (a pod asked for twice waits once). */
  private readonly queue = new Map<string, Waiter[]>()
  private sending = false

  constructor(
    private readonly cluster: () => ClusterApi,
    private readonly maxBatch = MAX_BATCH,
  ) {}

  /** The pod's address (null: it has no binding, or its node has no free address). */
  addressOf(podKey: string): Promise<PodAddresses | null> {
    return new Promise((resolve, reject) => {
      const waiting = this.queue.get(podKey)
      if (waiting) waiting.push({ resolve, reject })
      else this.queue.set(podKey, [{ resolve, reject }])
      if (!this.sending) void this.send()
    })
  }

  /** Sends the queue in batches until it is empty; pods asked for while a call is under way go in the next one. */
  private async send(): Promise<void> {
    this.sending = true
    try {
      while (this.queue.size > 0) {
        const batch: [string, Waiter[]][] = []
        for (const entry of this.queue) {
          if (batch.length === this.maxBatch) break
          batch.push(entry)
        }
        for (const [key] of batch) this.queue.delete(key)
        try {
          const answers = await this.cluster().allocatePodIPs(batch.map(([key]) => key))
          batch.forEach(([, waiters], i) => {
            for (const w of waiters) w.resolve(answers[i] ?? null)
          })
        } catch (e) {
          for (const [, waiters] of batch) for (const w of waiters) w.reject(e)
        }
      }
    } finally {
      this.sending = false
    }
  }
}
