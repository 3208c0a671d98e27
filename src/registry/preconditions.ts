// Preconditions of writes, judged and refused in kube's words: an update's, the uid of a PUT's body (kube's
// rest.DefaultUpdatedObjectInfo.Preconditions), checked as its storage checks it (storage.Preconditions.Check inside
// GuaranteedUpdate: a StorageError naming the etcd key, which the store wraps in a Conflict); a delete's, as
// rest.BeforeDelete checks them first.
import type { ResourceDef } from './resource'
import { statuses, type Status } from './status'
import type { KubeObject } from '../schema/meta'

// k8s.io/kubernetes pkg/kubeapiserver/default_storage_factory_builder.go SpecialDefaultResourcePrefixes.
const SPECIAL_PREFIXES: Record<string, string> = {
  replicationcontrollers: 'controllers',
  endpoints: 'services/endpoints',
  nodes: 'minions',
  services: 'services/specs',
  'ingresses.networking.k8s.io': 'ingress',
  'ingresses.extensions': 'ingress',
}

/**
 * The etcd key kube-apiserver keeps an object under (default --etcd-prefix /registry): built-in kinds by resource
 * name (or their historical prefix), custom resources and the apiextensions / apiregistration kinds by group and
 * resource, then the namespace when there is one, then the name.
 */
function storageKey(def: ResourceDef, namespace: string, name: string): string {
  const byGroup = def.unstructured || def.group === 'apiextensions.k8s.io' || def.group === 'apiregistration.k8s.io'
  const prefix = byGroup
    ? `${def.group}/${def.plural}`
    : (SPECIAL_PREFIXES[def.group ? `${def.plural}.${def.group}` : def.plural] ?? def.plural)
  return `/registry/${prefix}/${def.namespaced ? `${namespace}/` : ''}${name}`
}

/**
 * The precondition of a PUT (of the object or its /scale): the uid its body carries, if any. Patches and the server's
 * own read-modify-writes have none (kube's patcher builds its UpdatedObjectInfo without an object).
 */
export const updatePrecondition = (body: KubeObject): string | undefined => body.metadata?.uid || undefined

/** storage.Preconditions.Check of an update's uid, refused as InterpretUpdateError words it (409 Conflict); or null. */
export function uidPreconditionFailure(
  def: ResourceDef,
  namespace: string,
  name: string,
  uid: string | undefined,
  current: KubeObject,
): Status | null {
  const actual = current.metadata.uid ?? ''
  if (uid === undefined || uid === actual) return null
  const key = storageKey(def, namespace, name)
  const why = `Precondition failed: UID in precondition: ${uid}, UID in object meta: ${actual}`
  return statuses.conflict(
    { resource: def.plural, group: def.group || undefined },
    name,
    `StorageError: invalid object, Code: 4, Key: ${key}, ResourceVersion: 0, AdditionalErrorMsg: ${why}`,
  )
}

/**
 * A delete's preconditions as rest.BeforeDelete checks them, before anything else is decided: a Conflict on the
 * kind (its ObjectKinds, not the resource) in BeforeDelete's words; or null.
 */
export function deletePreconditionFailure(
  def: ResourceDef,
  name: string,
  pre: { uid?: string; resourceVersion?: string } | undefined,
  record: { uid: string; resourceVersion: string },
): Status | null {
  const kind = { resource: def.kind, group: def.group || undefined }
  if (pre?.uid !== undefined && pre.uid !== record.uid) {
    return statuses.conflict(
      kind,
      name,
      `the UID in the precondition (${pre.uid}) does not match the UID in record (${record.uid}). The object might have been deleted and then recreated`,
    )
  }
  if (pre?.resourceVersion !== undefined && pre.resourceVersion !== record.resourceVersion) {
    return statuses.conflict(
      kind,
      name,
      `the ResourceVersion in the precondition (${pre.resourceVersion}) does not match the ResourceVersion in record (${record.resourceVersion}). The object might have been modified`,
    )
  }
  return null
}
