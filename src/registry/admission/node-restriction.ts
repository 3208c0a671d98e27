// kube's NodeRestriction admission plugin (plugin/pkg/admission/noderestriction/admission.go, 1.33 with its patch
// releases' fixes): what a node (system:node:<name> in system:nodes) may write once the Node authorizer let it: only
// mirror pods bound to itself, owned by its Node and naming no other object; the status of its own pods; its own
// Node (not its taints, owners, config source or reserved labels); the status of claims (resize fields only); its own
// Lease. It runs in the generic store (registry/store.ts) for every write that carries a requesting node, after
// defaulting and before the strategy's hooks, where kube's admission chain runs; evictions and token requests, which
// no store writes, are judged with the same rules by node-requests.ts. Refusals are kube's 403s, word for word.
import { semanticEqual } from '../rbac/semantic-equal'
import { newForbidden } from '../rbac/forbidden'
import { goQuote } from '../go-strings'
import { type Status, statuses } from '../status'
import type { KubeObject } from '../../schema/meta'
import { forbiddenLabels, modifiedLabels } from './node-labels'
import { MIRROR_POD_ANNOTATION } from '../strategies/pod/pod-validation-annotations'
import {
  podConfigMapNames,
  podProjectsClusterTrustBundle,
  podHasClaimVolume,
  podSecretNames,
} from '../node-graph/pod-references'

/** The node a write comes from, as the Worker knew it (src/api/request-writer.ts). */
export interface RequestingNode {
  /** The user's name, for the message when the node cannot be identified. */
  user: string
  /** The node's name ('' when the user names none). */
  node: string
  /**
   * The uid of the node's Node as the Worker found it, for a mirror pod's owner (kube reads its informer cache):
   * null when there is no such Node, undefined when it was not looked up (writes that are not pod creates).
   */
  nodeUid?: string | null
}

export type Operation = 'CREATE' | 'UPDATE' | 'DELETE'

/** What the plugin judges (admission.Attributes). */
export interface NodeWrite {
  operation: Operation
  group: string
  resource: string
  subresource: string
  namespace: string
  /** The name the request names (a create's: its object's). */
  name: string
  object: KubeObject | null
  old: KubeObject | null
}

type Obj = Record<string, any>

const NODE_LEASE_NAMESPACE = 'kube-node-lease'

/** admission.NewForbidden: `<resource> "<name>" is forbidden: <why>`, the name falling back to the object's. */
export function admissionForbidden(a: NodeWrite, why: string): Status {
  const meta = (a.object as Obj | null)?.metadata
  const name = a.name || meta?.name || meta?.generateName || 'Unknown'
  return newForbidden(a.group, a.resource, name, why)
}

/** A listers' NotFound (kube's informer caches name the resource in the singular: `pod "x" not found`). */
export const listerNotFound = (singular: string, name: string) => statuses.notFound({ resource: singular }, name)

const labelsOf = (o: KubeObject | null) => (o?.metadata.labels ?? {}) as Record<string, string>

/** admitPodCreate: only mirror pods of this node, owned by its Node, naming no other object. */
function podCreate(node: RequestingNode, a: NodeWrite): Status | null {
  const pod = (a.object ?? {}) as Obj
  const n = goQuote(node.node)
  const no = (why: string) => admissionForbidden(a, why)
  if (pod.metadata?.annotations?.[MIRROR_POD_ANNOTATION] === undefined)
    return no(`pod does not have ${goQuote(MIRROR_POD_ANNOTATION)} annotation, node ${n} can only create mirror pods`)
  if ((pod.spec?.nodeName ?? '') !== node.node)
    return no(`node ${n} can only create pods with spec.nodeName set to itself`)
  const owners: Obj[] = pod.metadata?.ownerReferences ?? []
  if (owners.length > 1) return no(`node ${n} can only create pods with a single owner reference set to itself`)
  const owner = owners[0]
  if (!owner || owner.apiVersion !== 'v1' || owner.kind !== 'Node' || owner.name !== node.node)
    return no(`node ${n} can only create pods with an owner reference set to itself`)
  if (owner.controller !== true)
    return no(`node ${n} can only create pods with a controller owner reference set to itself`)
  if (owner.blockOwnerDeletion === true) return no(`node ${n} must not set blockOwnerDeletion on an owner reference`)
  if (node.nodeUid === null || node.nodeUid === undefined) return listerNotFound('node', node.node)
  if ((owner.uid ?? '') !== node.nodeUid)
    return no(`node ${node.node} UID mismatch: expected ${owner.uid ?? ''} got ${node.nodeUid}`)
  if (pod.spec?.serviceAccountName) return no(`node ${n} can not create pods that reference a service account`)
  if (podSecretNames(pod).length > 0) return no(`node ${n} can not create pods that reference secrets`)
  if (podConfigMapNames(pod).length > 0) return no(`node ${n} can not create pods that reference configmaps`)
  if (podProjectsClusterTrustBundle(pod)) return no(`node ${n} can not create pods that reference clustertrustbundles`)
  if (podHasClaimVolume(pod)) return no(`node ${n} can not create pods that reference persistentvolumeclaims`)
  // The fix of CVE-2025-4563 (1.33.2): mirror pods may not claim dynamic resources either.
  if ((pod.spec?.resourceClaims ?? []).length > 0)
    return no(`node ${n} can not create pods that reference resourceclaims`)
  return null
}

/** admitPod, admitPodStatus: mirror pods created and deleted, status written, only for pods bound to this node. */
function pods(node: RequestingNode, a: NodeWrite): Status | null {
  const n = goQuote(node.node)
  if (a.subresource === '') {
    if (a.operation === 'CREATE') return podCreate(node, a)
    if (a.operation === 'DELETE') {
      if (!a.old) return listerNotFound('pod', a.name)
      if (((a.old as Obj).spec?.nodeName ?? '') !== node.node)
        return admissionForbidden(a, `node ${n} can only delete pods with spec.nodeName set to itself`)
      return null
    }
    return admissionForbidden(
      a,
      `unexpected operation "${a.operation}", node ${n} can only create and delete mirror pods`,
    )
  }
  if (a.subresource === 'status') {
    if (a.operation !== 'UPDATE') return admissionForbidden(a, `unexpected operation "${a.operation}"`)
    const old = (a.old ?? {}) as Obj
    if ((old.spec?.nodeName ?? '') !== node.node)
      return admissionForbidden(a, `node ${n} can only update pod status for pods with spec.nodeName set to itself`)
    if (!semanticEqual(labelsOf(a.old), labelsOf(a.object)))
      return admissionForbidden(a, `node ${n} cannot update labels through pod status`)
    const claims = (o: Obj | null) =>
      ((o?.status?.resourceClaimStatuses ?? []) as Obj[]).map((s) => [s.name, s.resourceClaimName ?? null])
    if (JSON.stringify(claims(old)) !== JSON.stringify(claims(a.object as Obj)))
      return admissionForbidden(a, `node ${n} cannot update resource claim statues`)
    return null
  }
  return admissionForbidden(
    a,
    `unexpected pod subresource ${goQuote(a.subresource)}, only 'status' and 'eviction' are allowed`,
  )
}

/** admitNode: only its own Node; on create no config source or reserved labels; on update no taints, owners or labels. */
function nodes(node: RequestingNode, a: NodeWrite): Status | null {
  const n = goQuote(node.node)
  if (a.name !== node.node) return admissionForbidden(a, `node ${n} is not allowed to modify node ${goQuote(a.name)}`)
  const spec = (o: KubeObject | null) => ((o as Obj | null)?.spec ?? {}) as Obj
  if (a.operation === 'CREATE') {
    if (spec(a.object).configSource)
      return admissionForbidden(a, `node ${n} is not allowed to create pods with a non-nil configSource`)
    const bad = forbiddenLabels(modifiedLabels(labelsOf(a.object), {}))
    if (bad.length > 0)
      return admissionForbidden(a, `node ${n} is not allowed to set the following labels: ${bad.join(', ')}`)
  }
  if (a.operation === 'UPDATE') {
    const source = spec(a.object).configSource
    if (source && !semanticEqual(source, spec(a.old).configSource))
      return admissionForbidden(a, `node ${n} is not allowed to update configSource to a new non-nil configSource`)
    if (!semanticEqual(spec(a.object).taints, spec(a.old).taints))
      return admissionForbidden(a, `node ${n} is not allowed to modify taints`)
    // The fix of CVE-2025-5187 (1.33.4): an owner could have the garbage collector delete the Node.
    if (!semanticEqual(a.object?.metadata.ownerReferences, a.old?.metadata.ownerReferences))
      return admissionForbidden(a, `node ${n} is not allowed to modify ownerReferences`)
    const bad = forbiddenLabels(modifiedLabels(labelsOf(a.object), labelsOf(a.old)))
    if (bad.length > 0) return admissionForbidden(a, `is not allowed to modify labels: ${bad.join(', ')}`)
  }
  return null
}

/** The fields of a claim's status a node may change (RecoverVolumeExpansionFailure is on in 1.33). */
const PVC_RESIZE_FIELDS = ['capacity', 'conditions', 'allocatedResourceStatuses', 'allocatedResources']

/** A claim as admitPVCStatus compares it: without resourceVersion, managedFields and the resize fields. */
function comparableClaim(o: KubeObject | null): Obj {
  const copy = structuredClone((o ?? {}) as Obj)
  copy.metadata = { ...copy.metadata }
  delete copy.metadata.resourceVersion
  delete copy.metadata.managedFields
  copy.status = { ...copy.status }
  for (const f of PVC_RESIZE_FIELDS) delete copy.status[f]
  return copy
}

/** The top-level paths where two claims differ, standing in for kube's cmp.Diff (whose text is unstable by design). */
function differingPaths(a: Obj, b: Obj): string[] {
  const paths: string[] = []
  for (const part of ['metadata', 'spec', 'status']) {
    const keys = new Set([...Object.keys(a[part] ?? {}), ...Object.keys(b[part] ?? {})])
    for (const k of [...keys].sort()) if (!semanticEqual(a[part]?.[k], b[part]?.[k])) paths.push(`${part}.${k}`)
  }
  return paths
}

/** admitPVCStatus: a claim's resize status, nothing else of it. */
function claims(node: RequestingNode, a: NodeWrite): Status | null {
  if (a.subresource !== 'status') return admissionForbidden(a, 'may only update PVC status')
  if (a.operation !== 'UPDATE') return admissionForbidden(a, `unexpected operation "${a.operation}"`)
  const [old, updated] = [comparableClaim(a.old), comparableClaim(a.object)]
  if (semanticEqual(old, updated)) return null
  return admissionForbidden(
    a,
    `node ${goQuote(node.node)} is not allowed to update fields other than status.capacity and status.conditions: ${differingPaths(old, updated).join(', ')}`,
  )
}

/** admitLease: its own Lease in kube-node-lease. */
function leases(node: RequestingNode, a: NodeWrite): Status | null {
  if (a.namespace !== NODE_LEASE_NAMESPACE)
    return admissionForbidden(a, `can only access leases in the ${goQuote(NODE_LEASE_NAMESPACE)} system namespace`)
  const name = a.operation === 'CREATE' ? (a.object?.metadata.name ?? '') : a.name
  if (name !== node.node)
    return admissionForbidden(a, 'can only access node lease with the same name as the requesting node')
  return null
}

const PLUGINS: Record<string, (node: RequestingNode, a: NodeWrite) => Status | null> = {
  '/pods': pods,
  '/nodes': nodes,
  '/persistentvolumeclaims': claims,
  'coordination.k8s.io/leases': leases,
}

/** A store's write as the plugin sees it: `def`'s resource, through `ctx`'s subresource, in `ctx`'s namespace. */
export function storeWrite(
  operation: Operation,
  def: { group: string; plural: string },
  ctx: { namespace: string; subresource?: string },
  name: string,
  object: KubeObject | null,
  old: KubeObject | null,
): NodeWrite {
  const subresource = ctx.subresource ?? ''
  return { operation, group: def.group, resource: def.plural, subresource, namespace: ctx.namespace, name, object, old }
}

/** NodeRestriction's Admit for a write by `node`: null when it may go on, else kube's refusal. */
export function nodeRestriction(node: RequestingNode, a: NodeWrite): Status | null {
  if (node.node === '') return admissionForbidden(a, `could not determine node from user ${goQuote(node.user)}`)
  return PLUGINS[`${a.group}/${a.resource}`]?.(node, a) ?? null
}
