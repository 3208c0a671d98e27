// Addresses the cluster object handed out with a placement, kept until the simulated kubelet starts the pod, so
// starting it needs no second call to the cluster object. Only a shortcut: a pod not found here (this object
// restarted, the pod was bound by someone else) is asked for, and the cluster object answers the same address.
import type { PodAddresses } from '../cluster/cluster-api'

/** More pods than this waiting to start at once is not a case worth memory: the oldest fall back to asking. */
const MAX_ENTRIES = 10_000

export class PodAddressBook {
  private readonly byPod = new Map<string, PodAddresses>()

  remember(podKey: string, addresses: PodAddresses): void {
    if (this.byPod.size >= MAX_ENTRIES) {
      const oldest = this.byPod.keys().next().value
      if (oldest !== undefined) this.byPod.delete(oldest)
    }
    this.byPod.set(podKey, addresses)
  }

  take(podKey: string): PodAddresses | undefined {
    const found = this.byPod.get(podKey)
    this.byPod.delete(podKey)
    return found
  }

  forget(podKey: string): void {
    this.byPod.delete(podKey)
  }
}
