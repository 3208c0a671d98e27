// A Deployment's new ReplicaSet as kube's getNewReplicaSet finds or makes it (sync.go): the ReplicaSet whose template
// is the Deployment's, its revision raised above every old one and the Deployment's revision set to it; when there is
// none (and one is wanted), `<deployment>-<pod-template-hash>` created with the hash in its labels and selector, sized
// within maxSurge, a hash collision counted in status.collisionCount.
import { clone } from '../registry/deep-equal'
import { computeHash } from '../registry/pod-template-hash'
import type { KubeObject } from '../schema/meta'
import {
  condition,
  equalIgnoreHash,
  findNewReplicaSet,
  hasProgressDeadline,
  maxRevision,
  newCondition,
  newRSNewReplicas,
  oldReplicaSets,
  POD_TEMPLATE_HASH,
  REVISION,
  type RS,
  setCondition,
  setNewReplicaSetAnnotations,
} from './deployment-util'
import { type DeploymentSync, SyncError } from './deployment-writes'
import { CONTROLLER_MANAGER, controllerRef, ownerReference } from './pod-owner'

export interface Sets {
  newRS: RS | null
  oldRSs: RS[]
}

/**
 * getAllReplicaSetsAndSyncRevision / getNewReplicaSet: the new ReplicaSet (created when asked and missing) with its
 * revision raised above every old one, and the Deployment's revision set to it.
 */
export async function replicaSetsWithRevision(s: DeploymentSync, rsList: RS[], create: boolean): Promise<Sets> {
  const { d } = s
  const existing = findNewReplicaSet(d, rsList)
  const oldRSs = oldReplicaSets(rsList, existing)
  const newRevision = maxRevision(oldRSs) + 1
  if (existing) {
    const copy = clone(existing)
    const annotationsChanged = setNewReplicaSetAnnotations(d, copy, newRevision, true)
    if (annotationsChanged || (copy.spec.minReadySeconds ?? 0) !== (d.spec.minReadySeconds ?? 0)) {
      // Its commit brings this Deployment back, which then records the revision.
      const updated = await s.updateReplicaSet(existing, (cur) => {
        cur.metadata.annotations = copy.metadata.annotations
        if (d.spec.minReadySeconds) cur.spec.minReadySeconds = d.spec.minReadySeconds
        else delete cur.spec.minReadySeconds
      })
      return { newRS: updated, oldRSs }
    }
    let needsUpdate = setRevision(s, copy.metadata.annotations?.[REVISION])
    if (hasProgressDeadline(d) && !condition(d.status, 'Progressing')) {
      const msg = `Found new replica set "${copy.metadata.name}"`
      setCondition((d.status ??= {}), newCondition('Progressing', 'True', 'FoundNewReplicaSet', msg, s.now()))
      needsUpdate = true
    }
    if (needsUpdate) await s.updateStatus()
    return { newRS: copy, oldRSs }
  }
  if (!create) return { newRS: null, oldRSs }
  return { newRS: await createNewReplicaSet(s, oldRSs, newRevision), oldRSs }
}

function setRevision(s: DeploymentSync, revision: string | undefined): boolean {
  if (revision === undefined) return false
  const annotations = (s.d.metadata.annotations ??= {})
  if (annotations[REVISION] === revision) return false
  annotations[REVISION] = revision
  return true
}

/** The new ReplicaSet: `<deployment>-<pod-template-hash>`, its template and selector carrying the hash label. */
async function createNewReplicaSet(s: DeploymentSync, oldRSs: RS[], newRevision: number): Promise<RS | null> {
  const { d } = s
  const template = clone(d.spec.template)
  const hash = computeHash(template, d.status?.collisionCount)
  const labels = { ...(template.metadata?.labels ?? {}), [POD_TEMPLATE_HASH]: hash }
  template.metadata = { ...(template.metadata ?? {}), labels }
  const selector = clone(d.spec.selector)
  selector.matchLabels = { ...(selector.matchLabels ?? {}), [POD_TEMPLATE_HASH]: hash }
  const name = `${d.metadata.name}-${hash}`
  const newRS: RS = {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: {
      name,
      namespace: d.metadata.namespace,
      labels: { ...labels },
      ownerReferences: [ownerReference(d, 'apps/v1', 'Deployment')],
    },
    spec: {
      replicas: 0,
      ...(d.spec.minReadySeconds ? { minReadySeconds: d.spec.minReadySeconds } : {}),
      selector,
      template,
    },
  }
  const size = newRSNewReplicas(d, [...oldRSs, newRS], newRS)
  newRS.spec.replicas = size
  setNewReplicaSetAnnotations(d, newRS, newRevision, false)
  const r = await s.host.create('replicasets', newRS as KubeObject, { fieldManager: CONTROLLER_MANAGER })
  let created: RS
  let alreadyExists = false
  if (r.ok) created = r.value.object as RS
  else if (r.status.reason === 'AlreadyExists') {
    alreadyExists = true
    const found = s.host.get('replicasets', name)?.object as RS | undefined
    if (!found) throw new SyncError(r.status)
    if (controllerRef(found)?.uid !== d.metadata.uid || !equalIgnoreHash(d.spec.template, found.spec.template)) {
      // A hash collision: count it, so the next sync names the ReplicaSet differently.
      const status = (d.status ??= {})
      status.collisionCount = (status.collisionCount ?? 0) + 1
      await s.updateStatus()
      throw new SyncError(r.status)
    }
    created = found
  } else if (r.status.reason === 'Forbidden' && r.status.message?.includes('being terminated')) {
    throw new SyncError(r.status)
  } else {
    const msg = `Failed to create new replica set "${name}": ${r.status.message}`
    if (hasProgressDeadline(d)) {
      setCondition((d.status ??= {}), newCondition('Progressing', 'False', 'ReplicaSetCreateError', msg, s.now()))
      await s.updateStatus()
    }
    await s.event('Warning', 'ReplicaSetCreateError', msg)
    throw new SyncError(r.status)
  }
  if (!alreadyExists && size > 0)
    await s.event('Normal', 'ScalingReplicaSet', `Scaled up replica set ${name} to ${size}`)
  let needsUpdate = setRevision(s, String(newRevision))
  if (!alreadyExists && hasProgressDeadline(d)) {
    const msg = `Created new replica set "${name}"`
    setCondition((d.status ??= {}), newCondition('Progressing', 'True', 'NewReplicaSetCreated', msg, s.now()))
    needsUpdate = true
  }
  if (needsUpdate) await s.updateStatus()
  return created
}
