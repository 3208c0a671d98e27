// NodeRestriction for the two node requests no store writes (plugin/pkg/admission/noderestriction admitPodEviction,
// admitServiceAccount with ServiceAccountNodeAudienceRestriction, beta and on in 1.33): a node evicts only pods bound
// to it, and asks tokens only bound to a pod of its own, for an audience that pod's projected token volumes use or one
// it is authorized to request. The Worker calls these with the pod it read (src/api/pod-subresources.ts,
// src/api/token-request.ts), before anything else of the request is judged, as kube's admission runs first.
import { goQuote } from '../go-strings'
import type { Status } from '../status'
import type { KubeObject } from '../../schema/meta'
import { admissionForbidden, listerNotFound, type NodeWrite, type RequestingNode } from './node-restriction'

type Obj = Record<string, any>

const write = (resource: string, subresource: string, namespace: string, name: string, object: Obj): NodeWrite => ({
  operation: 'CREATE',
  group: '',
  resource,
  subresource,
  namespace,
  name,
  object: object as KubeObject,
  old: null,
})

const unidentified = (node: RequestingNode, a: NodeWrite) =>
  admissionForbidden(a, `could not determine node from user ${goQuote(node.user)}`)

/**
 * admitPodEviction: `name` is the pod the URL names ('' for none: the Eviction's own name), `pod` the stored one (null:
 * none).
 */
export function admitNodeEviction(
  node: RequestingNode,
  namespace: string,
  name: string,
  eviction: Obj,
  pod: KubeObject | null,
): Status | null {
  const a = write('pods', 'eviction', namespace, name, eviction)
  if (node.node === '') return unidentified(node, a)
  const podName = name || eviction.metadata?.name || ''
  if (podName === '') return admissionForbidden(a, 'could not determine pod from request data')
  if (!pod) return listerNotFound('pod', podName)
  if (((pod as Obj).spec?.nodeName ?? '') !== node.node)
    return admissionForbidden(a, `node ${node.node} can only evict pods with spec.nodeName set to itself`)
  return null
}

/** The pod a TokenRequest is bound to, if it names one (kube reads it from its informer cache). */
export function tokenRequestPod(request: Obj): string | null {
  const ref = request.spec?.boundObjectRef
  return ref?.apiVersion === 'v1' && ref.kind === 'Pod' && ref.name ? (ref.name as string) : null
}

/** Whether a projected service account token volume of the pod asks for this audience. */
const podUsesAudience = (pod: Obj, audience: string) =>
  ((pod.spec?.volumes ?? []) as Obj[]).some((v) =>
    ((v.projected?.sources ?? []) as Obj[]).some(
      (s) => s.serviceAccountToken && (s.serviceAccountToken.audience ?? '') === audience,
    ),
  )

/**
 * admitServiceAccount for a TokenRequest by a node: bound to a live pod of its own, for at most one audience, one its
 * pod uses or `mayRequest` (the authorizer chain, verb request-serviceaccounts-token-audience) allows.
 */
export async function admitNodeTokenRequest(
  node: RequestingNode,
  namespace: string,
  account: string,
  request: Obj,
  pod: KubeObject | null,
  mayRequest: (audience: string) => Promise<boolean>,
): Promise<Status | null> {
  const a = write('serviceaccounts', 'token', namespace, account, request)
  if (node.node === '') return unidentified(node, a)
  const podName = tokenRequestPod(request)
  if (podName === null) return admissionForbidden(a, 'node requested token not bound to a pod')
  const uid = request.spec.boundObjectRef.uid ?? ''
  if (uid === '') return admissionForbidden(a, 'node requested token with a pod binding without a uid')
  if (!pod) return listerNotFound('pod', podName)
  if (uid !== pod.metadata.uid)
    return admissionForbidden(
      a,
      `the UID in the bound object reference (${uid}) does not match the UID in record. The object might have been deleted and then recreated`,
    )
  if (((pod as Obj).spec?.nodeName ?? '') !== node.node)
    return admissionForbidden(a, 'node requested token bound to a pod scheduled on a different node')
  const audiences: string[] = request.spec?.audiences ?? []
  if (audiences.length > 1) return admissionForbidden(a, 'node may only request 0 or 1 audiences')
  const audience = audiences[0] ?? ''
  if (podUsesAudience(pod as Obj, audience) || (await mayRequest(audience))) return null
  return admissionForbidden(
    a,
    `audience ${goQuote(audience)} not found in pod spec volume, ${node.user} is not authorized to request tokens for this audience`,
  )
}
