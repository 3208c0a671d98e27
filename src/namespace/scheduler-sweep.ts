// What the namespace's scheduler checks once per instance against the cluster's ledger of its pods: a release lost to
// a restart of this object between a commit and its call would otherwise hold a node's room for good, and a pod's
// labels or deletion the ledger did not hear of would skew pod affinity and topology spread.
import type { ClusterApi, ReservedPod } from '../cluster/cluster-api'
import type { ControllerHost } from '../host/controller'
import { podAffinityOf } from '../registry/pod-affinity'
import { terminal } from './scheduler-pods'

type Obj = Record<string, any>

/**
 * Gives back the reservations of pods that are gone or Succeeded/Failed, and describes the others where the ledger
 * lags. Unbound pods keep theirs (a binding may be on its way).
 */
export async function sweepReservations(host: ControllerHost, cluster: ClusterApi): Promise<void> {
  let reserved: ReservedPod[]
  try {
    reserved = await cluster.reservedPods(host.scope)
  } catch (e) {
    console.error(`reading ${host.scope}'s reservations failed`, e)
    return
  }
  for (const { key, described, terminating } of reserved) {
    const [, name = '', uid] = key.split('/')
    const current = host.get('pods', name)?.object as Obj | undefined
    const same = current?.metadata.uid === uid
    if (same && !terminal(current)) {
      // Bound before the ledger kept labels: it learns them (and the pod's affinity) once.
      if (!described)
        await cluster.describePod(key, current!.metadata.labels ?? {}, podAffinityOf(current!.spec?.affinity))
      // Its deletion was committed while this object restarted (or before the ledger kept it).
      if (!terminating && current!.metadata.deletionTimestamp) await cluster.podTerminating(key)
      continue
    }
    await cluster.releasePod(key, same)
  }
}
