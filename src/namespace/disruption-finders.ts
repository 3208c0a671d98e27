// The scale of a pod's controller, as kube's disruption controller finds it (pkg/controller/disruption finders():
// getPodReplicationController, getPodDeployment, getPodReplicaSet, getPodStatefulSet, then getScaleController): the
// workload kinds are read directly, a ReplicaSet under a Deployment counting as the Deployment; any other controller
// is resolved by group, version and Kind (kube's RESTMapper, KindTable.byGroupVersionKind) and its /scale read, so a
// custom resource with the scale subresource counts its Scale's spec.replicas and a CRD kind named like a built-in is
// never taken for it. Kinds the isolate has not loaded are loaded first (knowControllerKinds), as the garbage
// collector loads its owners' kinds.
import type { ControllerHost } from '../host/controller'
import { parseApiVersion } from '../registry/custom/custom-kinds'
import type { ScaleLookup } from '../registry/disruption'
import { goQuote } from '../registry/go-strings'
import { resourceKey, type ResourceDef } from '../registry/resource'
import { kinds } from '../registry/resources'
import { scaleOf, servesScale } from '../registry/scale-subresource'
import type { KubeObject } from '../schema/meta'

type Ref = Parameters<ScaleLookup>[0]
type Get = (resource: string, name: string) => KubeObject | undefined
type Found = ReturnType<ScaleLookup>
type Finder = (ref: Ref, get: Get) => Found

const APPS = ['apps', 'extensions']

/** verifyGroupKind: the reference names `kind` in one of `groups` (any version). */
const isGroupKind = (ref: Ref, kind: string, groups: readonly string[]) =>
  ref.kind === kind && groups.includes(parseApiVersion(ref.apiVersion).group)

/** metav1.GetControllerOf. */
const controllerOf = (obj: KubeObject) => obj.metadata.ownerReferences?.find((r) => r.controller === true)

/** The object `ref` names, if it is there and still the one referenced (same uid). */
const referenced = (get: Get, resource: string, ref: Ref) => {
  const obj = get(resource, ref.name)
  return obj && obj.metadata.uid === ref.uid ? obj : undefined
}

/** A workload's `*spec.replicas` (defaulting always sets it). */
const replicas = (obj: KubeObject) => ((obj as { spec?: { replicas?: number } }).spec?.replicas ?? 1) as number

const replicationController: Finder = (ref, get) => {
  if (!isGroupKind(ref, 'ReplicationController', [''])) return null
  const rc = referenced(get, 'replicationcontrollers', ref)
  return rc ? replicas(rc) : null
}

/** getPodDeployment: a ReplicaSet controlled by a Deployment (apps or extensions, same uid) counts as the Deployment. */
const deployment: Finder = (ref, get) => {
  if (!isGroupKind(ref, 'ReplicaSet', APPS)) return null
  const rs = referenced(get, 'replicasets', ref)
  const up = rs && controllerOf(rs)
  if (!up || !isGroupKind(up, 'Deployment', APPS)) return null
  const d = referenced(get, 'deployments', up)
  return d ? replicas(d) : null
}

/** getPodReplicaSet: a ReplicaSet whose controller is not a Deployment (of any group: kube compares the Kind only). */
const replicaSet: Finder = (ref, get) => {
  if (!isGroupKind(ref, 'ReplicaSet', APPS)) return null
  const rs = referenced(get, 'replicasets', ref)
  if (!rs || controllerOf(rs)?.kind === 'Deployment') return null
  return replicas(rs)
}

const statefulSet: Finder = (ref, get) => {
  if (!isGroupKind(ref, 'StatefulSet', ['apps'])) return null
  const ss = referenced(get, 'statefulsets', ref)
  return ss ? replicas(ss) : null
}

/** meta.NoKindMatchError for one searched version. */
function noKindMatch(apiVersion: string, kind: string): { error: string } {
  const { group, version } = parseApiVersion(apiVersion)
  return {
    error: `no matches for kind ${goQuote(kind)} in version ${goQuote(group ? `${group}/${version}` : version)}`,
  }
}

/**
 * getScaleController: the kind's RESTMapping, then its Scale. A kind without /scale is an error ("<resource>.<group>
 * does not implement the scale subresource", kube's implementsScale after the 404); a scalable object that is gone
 * or holds another uid is no controller. A cluster-scoped kind's Scale is asked for under the namespace, where it
 * is never found (kube's scale client does the same).
 */
const scaleController: Finder = (ref, get) => {
  const { group, version } = parseApiVersion(ref.apiVersion)
  const def = kinds.byGroupVersionKind(group, version, ref.kind)
  if (!def) return noKindMatch(ref.apiVersion, ref.kind)
  if (!servesScale(def))
    return { error: `${def.plural}${def.group ? `.${def.group}` : ''} does not implement the scale subresource` }
  if (!def.namespaced) return null
  const resource = resourceKey(def)
  const obj = referenced(get, resource, ref)
  if (!obj) return null
  // The stored object is in its storage version: its row says where that version keeps the replicas.
  const stored: ResourceDef = kinds.byPlural(resource) ?? def
  return ((scaleOf(obj, stored).spec as { replicas: number }).replicas ?? 0) as number
}

const FINDERS: readonly Finder[] = [replicationController, deployment, replicaSet, statefulSet, scaleController]

/** The disruption controller's finders over a namespace's objects: the first that finds the controller answers. */
export function scaleLookup(get: Get): ScaleLookup {
  return (ref) => {
    for (const find of FINDERS) {
      const found = find(ref, get)
      if (found !== null) return found
    }
    return null
  }
}

/**
 * Loads the kinds the pods' controllers name that this isolate may not have loaded (a custom resource's), before a
 * sync reads their scale: the lookup itself runs inside the status write's mutation, which cannot wait.
 */
export async function knowControllerKinds(host: ControllerHost, pods: readonly KubeObject[]): Promise<void> {
  const seen = new Set<string>()
  const loads: Promise<void>[] = []
  for (const pod of pods) {
    const ref = controllerOf(pod)
    if (!ref) continue
    const key = `${ref.apiVersion}\n${ref.kind}`
    if (seen.has(key)) continue
    seen.add(key)
    const { group, version } = parseApiVersion(ref.apiVersion)
    if (kinds.byGroupVersionKind(group, version, ref.kind)) continue
    const load = host.knowKindOf(ref.apiVersion, ref.kind)
    if (load) loads.push(load)
  }
  await Promise.all(loads)
}
