// The Node authorizer's graph (kube's plugin/pkg/auth/authorizer/node/graph.go) as index rows: each pod bound to a
// node and each PersistentVolume with a claim contributes edges to the objects it names, and the hosts' stores keep
// them beside the objects (host/sql-object-store.ts, table graph_edges), so "does a pod on node n name this secret"
// is one indexed lookup in the namespace's object, never a scan. kube's graph points every edge toward a node:
//   pod -> node; secret, configmap, pvc, serviceAccount, resourceclaim -> pod (-> node); pv -> pvc; secret -> pv.
// A row here is the reverse reading of one such edge: (type, namespace, name) is the vertex an edge leaves, the row's
// object the vertex it reaches, `node` the node a pod edge ends at ('' for the PV's edges, which reach no node).
import type { KubeObject } from '../../schema/meta'
import { MIRROR_POD_ANNOTATION } from '../strategies/pod/pod-validation-annotations'
import { podClaimNames, podConfigMapNames, podResourceClaimNames, podSecretNames } from './pod-references'

/** One edge toward the object holding it: from the vertex `type` `namespace`/`name` ('' namespace: the holder's own). */
export interface GraphEdge {
  /** kube's vertex type names: configmap, secret, pvc, serviceAccount, resourceclaim. */
  type: string
  namespace: string
  name: string
  /** The node the holder is bound to ('' when the holder is not a pod). */
  node: string
}

type Obj = Record<string, any>

/**
 * AddPod: a pod bound to a node gets edges from its service account, secrets, configmaps, claims and resource claims;
 * a mirror pod gets none (a node must never create a pod that grants it access to other objects); an unbound pod is
 * not in the graph.
 */
function podEdges(pod: Obj): GraphEdge[] {
  const node: string = pod.spec?.nodeName ?? ''
  if (!node || pod.metadata?.annotations?.[MIRROR_POD_ANNOTATION] !== undefined) return []
  const edges: GraphEdge[] = []
  const add = (type: string, names: string[]) => {
    for (const name of new Set(names)) edges.push({ type, namespace: '', name, node })
  }
  add('serviceAccount', pod.spec?.serviceAccountName ? [pod.spec.serviceAccountName] : [])
  add('secret', podSecretNames(pod))
  add('configmap', podConfigMapNames(pod))
  add('pvc', podClaimNames(pod))
  add('resourceclaim', podResourceClaimNames(pod))
  return edges
}

/**
 * The graph populator's updatePod: the edges change only when the pod's node, uid or resource claim statuses do (the
 * references in a bound pod's spec are immutable), so an update keeping these keeps the rows.
 */
function podKey(pod: Obj): string {
  const claims = ((pod.status?.resourceClaimStatuses ?? []) as Obj[]).map((s) => [s.name, s.resourceClaimName ?? null])
  return JSON.stringify([pod.spec?.nodeName ?? '', pod.metadata?.uid ?? '', claims])
}

/** VisitPVSecretNames' kubelet-visible secrets: (namespace, name), the claim's namespace when the source names none. */
export function pvSecretRefs(pv: Obj): { namespace: string; name: string }[] {
  const s: Obj = pv.spec ?? {}
  const claimNs: string = s.claimRef?.namespace ?? ''
  const refs: { namespace: string; name: string }[] = []
  const ref = (r: Obj | undefined, fallback = claimNs) => {
    if (r) refs.push({ namespace: r.namespace || fallback, name: r.name ?? '' })
  }
  if (s.azureFile) refs.push({ namespace: s.azureFile.secretNamespace || claimNs, name: s.azureFile.secretName ?? '' })
  else if (s.cephfs) ref(s.cephfs.secretRef)
  else if (s.cinder) ref(s.cinder.secretRef, '')
  else if (s.flexVolume) ref(s.flexVolume.secretRef)
  else if (s.rbd) ref(s.rbd.secretRef)
  else if (s.scaleIO) ref(s.scaleIO.secretRef)
  else if (s.iscsi) ref(s.iscsi.secretRef)
  else if (s.storageos) ref(s.storageos.secretRef, '')
  else if (s.csi) {
    // The controller's secrets are not the kubelet's to read.
    ref(s.csi.nodePublishSecretRef, '')
    ref(s.csi.nodeStageSecretRef, '')
  }
  return refs.filter((r) => r.name !== '')
}

/** AddPV: a volume with a claim gets an edge to the claim and from each secret the kubelet reads for it. */
function pvEdges(pv: Obj): GraphEdge[] {
  const claim = pv.spec?.claimRef
  if (!claim) return []
  return [
    { type: 'pvc', namespace: claim.namespace ?? '', name: claim.name ?? '', node: '' },
    ...pvSecretRefs(pv).map((r) => ({ type: 'secret', namespace: r.namespace, name: r.name, node: '' })),
  ]
}

/** What a PV's edges depend on: its claim and secrets (AddPV rebuilds them on every update). */
const pvKey = (pv: Obj) => JSON.stringify(pvEdges(pv))

const SOURCES: Record<string, { edges(obj: Obj): GraphEdge[]; key(obj: Obj): string }> = {
  pods: { edges: podEdges, key: podKey },
  persistentvolumes: { edges: pvEdges, key: pvKey },
}

/** The resources whose objects hold graph edges (pods and PersistentVolumes). */
export const GRAPH_RESOURCES: readonly string[] = Object.keys(SOURCES)

/** The edges an object of `resource` holds; [] for resources outside the graph. */
export function graphEdgesOf(resource: string, obj: KubeObject): GraphEdge[] {
  return SOURCES[resource]?.edges(obj) ?? []
}

/** Whether an update from `prev` to `obj` may change the object's edges (false: keep its rows). */
export function graphEdgesChanged(resource: string, prev: KubeObject, obj: KubeObject): boolean {
  const source = SOURCES[resource]
  return source !== undefined && source.key(prev) !== source.key(obj)
}
