// kube's Node authorizer, as far as a node agent needs it: a `system:node:<name>` user in group `system:nodes` may do
// what the `system:node` ClusterRole of kube's bootstrap policy allows, narrowed as kube narrows it to the node's own
// objects: its Node (writes), its Lease in kube-node-lease, its tunnel (nodes/tunnel, ours). What kube grants a node
// only through its graph of bound pods (ConfigMaps, Secrets, claims, volumes, ServiceAccount tokens) is left to RBAC
// here. Anything it does not allow goes on to RBAC, as kube's authorizer chain does.
import type { Attributes } from '../registry/rbac/attributes'
import { bootstrapPolicy } from '../registry/rbac/bootstrap-policy'
import { ruleAllows } from '../registry/rbac/rule-matching'
import type { PolicyRule } from '../schema/rbac'

const NODES_GROUP = 'system:nodes'
const NODE_USER_PREFIX = 'system:node:'
const GRAPH_RESOURCES = new Set([
  'configmaps',
  'secrets',
  'persistentvolumeclaims',
  'persistentvolumes',
  'serviceaccounts',
  'resourceclaims',
])
const WRITES = new Set(['create', 'update', 'patch', 'delete', 'deletecollection'])

let nodeRules: PolicyRule[] | null = null
const rules = () =>
  (nodeRules ??= bootstrapPolicy().clusterRoles.find((r) => r.metadata?.name === 'system:node')?.rules ?? [])

/** The node a user speaks for, or null. */
export function nodeOf(user: { name: string; groups: string[] }): string | null {
  if (!user.groups.includes(NODES_GROUP) || !user.name.startsWith(NODE_USER_PREFIX)) return null
  return user.name.slice(NODE_USER_PREFIX.length) || null
}

/** Allowed for a node identity, or null: no opinion (RBAC decides). */
export function nodeAuthorize(attrs: Attributes): { allowed: true; reason: string } | null {
  const node = nodeOf(attrs.user)
  if (!node || !attrs.resourceRequest) return null
  const own = (name: string) => name === node
  const { apiGroup: group, resource, subresource, name, verb } = attrs
  const allow = { allowed: true as const, reason: '' }
  if (group === '' && resource === 'nodes' && subresource === 'tunnel')
    return own(name) && verb === 'get' ? allow : null
  if (group === '' && GRAPH_RESOURCES.has(resource)) return null
  if (group === '' && resource === 'nodes' && WRITES.has(verb) && verb !== 'create' && !own(name)) return null
  if (group === 'coordination.k8s.io' && resource === 'leases') {
    if (attrs.namespace !== 'kube-node-lease' || (name !== '' && !own(name)) || (name === '' && verb !== 'create'))
      return null
  }
  return rules().some((rule) => ruleAllows(attrs, rule)) ? allow : null
}
