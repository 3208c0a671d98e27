// kube's Node authorizer (plugin/pkg/auth/authorizer/node/node_authorizer.go, 1.33 with AuthorizeNodeWithSelectors
// on): a `system:node:<name>` user in `system:nodes` may read secrets, configmaps, claims, volumes and resource claims
// and ask tokens for service accounts only when the object leads to its node in the graph (a pod bound to the node
// names it; src/identity/node-graph.ts answers), read only its own Node, list and watch only the pods bound to it,
// use only its own Lease and CSINode; everything else is judged by the system:node rules of kube's bootstrap policy.
// Decisions are Allow or NoOpinion with kube's reasons; the chain goes on to RBAC after a NoOpinion (authorizer.ts).
// Ours besides kube's: `get nodes/<own name>/tunnel`, the agent's tunnel (src/api/node-tunnel-routes.ts).
import type { Attributes } from '../registry/rbac/attributes'
import { bootstrapPolicy } from '../registry/rbac/bootstrap-policy'
import { ruleAllows } from '../registry/rbac/rule-matching'
import { goQuote } from '../registry/go-strings'
import type { PolicyRule } from '../schema/rbac'

const NODES_GROUP = 'system:nodes'
const NODE_USER_PREFIX = 'system:node:'
const NODE_LEASE_NAMESPACE = 'kube-node-lease'

/** kube's graph vertex types (graph.go vertexTypes). */
export type VertexType =
  | 'configmap'
  | 'secret'
  | 'pod'
  | 'pvc'
  | 'pv'
  | 'resourceclaim'
  | 'volumeattachment'
  | 'serviceAccount'
  | 'resourceslice'

/** The graph the authorizer asks: whether the vertex leads to the node (kube's hasPathFrom). */
export interface NodeGraph {
  reaches(node: string, type: VertexType, namespace: string, name: string): Promise<boolean>
}

/** Allow, or NoOpinion with kube's reason ('' for none). */
interface NodeDecision {
  allowed: boolean
  reason: string
}

const ALLOW: NodeDecision = { allowed: true, reason: '' }
const noOpinion = (reason = ''): NodeDecision => ({ allowed: false, reason })

let nodeRules: PolicyRule[] | null = null
const rules = () =>
  (nodeRules ??= bootstrapPolicy().clusterRoles.find((r) => r.metadata?.name === 'system:node')?.rules ?? [])

/**
 * nodeidentifier's NodeIdentity: a node is a user named `system:node:<name>` in `system:nodes`; the name may be empty
 * (a node kube cannot identify).
 */
export function nodeIdentity(user: { name: string; groups: string[] }): { isNode: boolean; node: string } {
  if (!user.name.startsWith(NODE_USER_PREFIX) || !user.groups.includes(NODES_GROUP)) return { isNode: false, node: '' }
  return { isNode: true, node: user.name.slice(NODE_USER_PREFIX.length) }
}

/** The node a user speaks for, or null (not a node, or one without a name). */
export function nodeOf(user: { name: string; groups: string[] }): string | null {
  return nodeIdentity(user).node || null
}

const noRelationship = (node: string) => noOpinion(`no relationship found between node '${node}' and this object`)

type Check = (node: string, attrs: Attributes, graph: NodeGraph) => Promise<NodeDecision> | NodeDecision

/** authorize: the object must be named and lead to the node. */
async function related(node: string, type: VertexType, attrs: Attributes, graph: NodeGraph): Promise<NodeDecision> {
  if (attrs.name === '') return noOpinion('No Object name found')
  return (await graph.reaches(node, type, attrs.namespace, attrs.name)) ? ALLOW : noRelationship(node)
}

/** authorizeGet: `get` of a whole object related to the node. */
const getOf =
  (type: VertexType): Check =>
  (node, attrs, graph) => {
    if (attrs.verb !== 'get') return noOpinion('can only get individual resources of this type')
    if (attrs.subresource !== '') return noOpinion('cannot get subresource')
    return related(node, type, attrs, graph)
  }

/** authorizeReadNamespacedObject: get, list or watch of one named namespaced object related to the node. */
const readOf =
  (type: VertexType): Check =>
  (node, attrs, graph) => {
    if (!['get', 'list', 'watch'].includes(attrs.verb)) return noOpinion('can only read resources of this type')
    if (attrs.subresource !== '') return noOpinion('cannot read subresource')
    if (attrs.namespace === '') return noOpinion('can only read namespaced object of this type')
    return related(node, type, attrs, graph)
  }

/** persistentvolumeclaims: status writes (authorizeStatusUpdate) or gets of claims related to the node. */
const claims: Check = (node, attrs, graph) => {
  if (attrs.subresource !== 'status') return getOf('pvc')(node, attrs, graph)
  if (attrs.verb !== 'update' && attrs.verb !== 'patch') return noOpinion('can only get/update/patch this type')
  return related(node, 'pvc', attrs, graph)
}

/** authorizeCreateToken: serviceaccounts/token of an account a pod on the node runs as. */
const tokens: Check = async (node, attrs, graph) => {
  if (attrs.verb !== 'create' || attrs.name === '')
    return noOpinion('can only create tokens for individual service accounts')
  if (attrs.subresource !== 'token') return noOpinion('can only create token subresource of serviceaccount')
  return (await graph.reaches(node, 'serviceAccount', attrs.namespace, attrs.name)) ? ALLOW : noRelationship(node)
}

/** authorizeLease: the node's own Lease in kube-node-lease (a create's name is NodeRestriction's to check). */
const leases: Check = (node, attrs) => {
  if (!['get', 'create', 'update', 'patch', 'delete'].includes(attrs.verb))
    return noOpinion('can only get, create, update, patch, or delete a node lease')
  if (attrs.namespace !== NODE_LEASE_NAMESPACE)
    return noOpinion(`can only access leases in the ${goQuote(NODE_LEASE_NAMESPACE)} system namespace`)
  if (attrs.verb !== 'create' && attrs.name !== node)
    return noOpinion('can only access node lease with the same name as the requesting node')
  return ALLOW
}

/** authorizeCSINode: the node's own CSINode. */
const csiNodes: Check = (node, attrs) => {
  if (!['get', 'create', 'update', 'patch', 'delete'].includes(attrs.verb))
    return noOpinion('can only get, create, update, patch, or delete a CSINode')
  if (attrs.subresource !== '') return noOpinion('cannot authorize CSINode subresources')
  if (attrs.verb !== 'create' && attrs.name !== node)
    return noOpinion('can only access CSINode with the same name as the requesting node')
  return ALLOW
}

/** A field selector term `field=value` (kube's selection.Equals covers `=` and `==`). */
const selects = (attrs: Attributes, field: string, value: string) =>
  (attrs.fieldSelector ?? []).some((r) => r.field === field && r.operator !== '!=' && r.value === value)

/** authorizeResourceSlice: creates (NodeRestriction checks them), the node's slices, lists scoped to the node. */
const resourceSlices: Check = (node, attrs, graph) => {
  if (attrs.subresource !== '') return noOpinion('cannot authorize ResourceSlice subresources')
  switch (attrs.verb) {
    case 'create':
      return ALLOW
    case 'get':
    case 'update':
    case 'patch':
    case 'delete':
      return related(node, 'resourceslice', attrs, graph)
    case 'watch':
    case 'list':
    case 'deletecollection':
      return selects(attrs, 'nodeName', node)
        ? ALLOW
        : noOpinion('can only list/watch/deletecollection resourceslices with nodeName field selector')
    default:
      return noOpinion(
        'only the following verbs are allowed for a ResourceSlice: get, watch, list, create, update, patch, delete, deletecollection',
      )
  }
}

/** authorizeNode: register and update (NodeRestriction limits them to its own), read only its own Node. */
const nodes: Check = (node, attrs) => {
  const { verb, name } = attrs
  if (attrs.subresource === '') {
    if (verb === 'create' || verb === 'update' || verb === 'patch') return ALLOW
    if (verb === 'get' || verb === 'list' || verb === 'watch') {
      if (name === node) return ALLOW
      if (name === '') return noOpinion(`node '${node}' cannot read all nodes, only its own Node object`)
      return noOpinion(`node '${node}' cannot read '${name}', only its own Node object`)
    }
  }
  if (attrs.subresource === 'status' && (verb === 'update' || verb === 'patch')) return ALLOW
  // The agent's tunnel to its own node (kubeflare's; kube has no such subresource).
  if (attrs.subresource === 'tunnel' && verb === 'get' && name === node) return ALLOW
  return noOpinion()
}

/** authorizePod: pods bound to the node; mirror pods, status and evictions (NodeRestriction narrows them). */
const pods: Check = (node, attrs, graph) => {
  const { verb } = attrs
  switch (attrs.subresource) {
    case '':
      if (verb === 'get') return getOf('pod')(node, attrs, graph)
      if (verb === 'list' || verb === 'watch') {
        if (selects(attrs, 'spec.nodeName', node)) return ALLOW
        // A read of a single pod (a metadata.name field selector) known to be related to the node.
        if (attrs.name !== '') return related(node, 'pod', attrs, graph)
        return noOpinion('can only list/watch pods with spec.nodeName field selector')
      }
      if (verb === 'create' || verb === 'delete') return ALLOW
      break
    case 'status':
      if (verb === 'update' || verb === 'patch') return ALLOW
      break
    case 'eviction':
      if (verb === 'create') return ALLOW
      break
  }
  return noOpinion()
}

/** The resources whose access kube subdivides, by `group/resource`. */
const SUBDIVIDED: Record<string, Check> = {
  '/secrets': readOf('secret'),
  '/configmaps': readOf('configmap'),
  '/persistentvolumeclaims': claims,
  '/persistentvolumes': getOf('pv'),
  'resource.k8s.io/resourceclaims': getOf('resourceclaim'),
  'storage.k8s.io/volumeattachments': getOf('volumeattachment'),
  '/serviceaccounts': tokens,
  'coordination.k8s.io/leases': leases,
  'storage.k8s.io/csinodes': csiNodes,
  'resource.k8s.io/resourceslices': resourceSlices,
  '/nodes': nodes,
  '/pods': pods,
}

/** The Node authorizer's decision; NoOpinion for users that are not nodes (then RBAC alone decides). */
export async function nodeAuthorize(attrs: Attributes, graph: NodeGraph): Promise<NodeDecision> {
  const { isNode, node } = nodeIdentity(attrs.user)
  if (!isNode) return noOpinion()
  if (node === '') return noOpinion(`unknown node for user ${goQuote(attrs.user.name)}`)
  if (attrs.resourceRequest) {
    const check = SUBDIVIDED[`${attrs.apiGroup}/${attrs.resource}`]
    if (check) return check(node, attrs, graph)
  }
  return rules().some((rule) => ruleAllows(attrs, rule)) ? ALLOW : noOpinion()
}
