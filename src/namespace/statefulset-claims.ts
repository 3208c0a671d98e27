// A StatefulSet's PersistentVolumeClaims from its volumeClaimTemplates (kube's StatefulPodControl): each pod's claims
// made before the pod when the PersistentVolumeClaim kind is served, owned by the set under whenDeleted: Delete, and
// deleted with a pod scaled away under whenScaled: Delete.
import type { ControllerHost } from '../host/controller'
import { kinds } from '../registry/resources'
import { podClaims } from '../registry/stateful-decisions'
import type { StatefulSetObject } from '../registry/strategies/apps/stateful-set'
import type { KubeObject } from '../schema/meta'
import { CONTROLLER_MANAGER, ownerReference } from './pod-owner'

const CLAIMS = 'persistentvolumeclaims'

/** Records one of the set's events (the controller's component). */
type SetEvent = (type: 'Normal' | 'Warning', reason: string, message: string) => Promise<unknown>

/**
 * createPersistentVolumeClaims: each missing claim, when the PersistentVolumeClaim kind is served. Answers whether a
 * create was refused (the set is then synced again, rate-limited).
 */
export async function createClaims(
  host: ControllerHost,
  set: StatefulSetObject,
  pod: KubeObject,
  ordinal: number,
  event: SetEvent,
): Promise<boolean> {
  let refused = false
  if (!kinds.byPlural(CLAIMS)) return refused
  for (const { claim: body } of podClaims(set, ordinal)) {
    if (set.spec?.persistentVolumeClaimRetentionPolicy?.whenDeleted === 'Delete')
      body.metadata.ownerReferences = [ownerReference(set, 'apps/v1', 'StatefulSet')]
    const r = await host.reconcile(CLAIMS, body.metadata.name!, (cur) => (cur ? null : { create: body }), {
      fieldManager: CONTROLLER_MANAGER,
    })
    if (r.ok && r.value) {
      const message = `create Claim ${body.metadata.name} Pod ${pod.metadata.name} in StatefulSet ${set.metadata.name} success`
      await event('Normal', 'SuccessfulCreate', message)
    } else if (!r.ok) {
      refused = true
      const message = `create Claim ${body.metadata.name} for Pod ${pod.metadata.name} in StatefulSet ${set.metadata.name} failed error: ${r.status.message}`
      await event('Warning', 'FailedCreate', message)
    }
  }
  return refused
}

/** whenScaled: Delete — the claims of a pod scaled away go with it. */
export async function deleteClaims(host: ControllerHost, set: StatefulSetObject, ordinal: number) {
  if (!kinds.byPlural(CLAIMS) || ordinal < 0) return
  await Promise.all(podClaims(set, ordinal).map(({ claim: c }) => host.delete(CLAIMS, c.metadata.name!)))
}
