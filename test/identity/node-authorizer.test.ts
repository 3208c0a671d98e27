// The Node authorizer for node agents: the system:node rules, narrowed to the node's own Node, Lease and tunnel;
// graph-granted kinds and everyone who is not a node left to RBAC.
import { describe, expect, it } from 'vitest'
import { nodeAuthorize, nodeOf } from '../../src/identity/node-authorizer'
import type { Attributes } from '../../src/registry/rbac/attributes'

const node = { name: 'system:node:edge-1', groups: ['system:nodes', 'system:authenticated'] }
const attrs = (a: Partial<Attributes>, user = node): Attributes => ({
  user,
  verb: 'get',
  namespace: '',
  apiGroup: '',
  apiVersion: 'v1',
  resource: '',
  subresource: '',
  name: '',
  resourceRequest: true,
  path: '/',
  ...a,
})
const allowed = (a: Partial<Attributes>, user = node) => nodeAuthorize(attrs(a, user))?.allowed === true

describe('node authorizer', () => {
  it('knows node identities', () => {
    expect(nodeOf(node)).toBe('edge-1')
    expect(nodeOf({ name: 'system:node:edge-1', groups: [] })).toBeNull()
    expect(nodeOf({ name: 'alice', groups: ['system:nodes'] })).toBeNull()
  })

  it('allows what a kubelet does, for its own node', () => {
    expect(allowed({ resource: 'nodes', subresource: 'tunnel', name: 'edge-1' })).toBe(true)
    expect(allowed({ verb: 'patch', resource: 'nodes', subresource: 'status', name: 'edge-1' })).toBe(true)
    expect(allowed({ verb: 'create', resource: 'nodes' })).toBe(true)
    expect(allowed({ verb: 'watch', resource: 'pods' })).toBe(true)
    expect(allowed({ verb: 'patch', resource: 'pods', subresource: 'status', namespace: 'a', name: 'p' })).toBe(true)
    expect(allowed({ verb: 'delete', resource: 'pods', namespace: 'a', name: 'p' })).toBe(true)
    expect(allowed({ verb: 'create', resource: 'events', namespace: 'a' })).toBe(true)
    const lease = { apiGroup: 'coordination.k8s.io', resource: 'leases', namespace: 'kube-node-lease' }
    expect(allowed({ ...lease, verb: 'update', name: 'edge-1' })).toBe(true)
    expect(allowed({ ...lease, verb: 'create' })).toBe(true)
  })

  it('leaves other nodes’ objects, graph kinds and other users to RBAC', () => {
    expect(allowed({ resource: 'nodes', subresource: 'tunnel', name: 'edge-2' })).toBe(false)
    expect(allowed({ verb: 'patch', resource: 'nodes', subresource: 'status', name: 'edge-2' })).toBe(false)
    expect(
      allowed({
        verb: 'update',
        apiGroup: 'coordination.k8s.io',
        resource: 'leases',
        namespace: 'kube-node-lease',
        name: 'edge-2',
      }),
    ).toBe(false)
    expect(
      allowed({
        verb: 'get',
        apiGroup: 'coordination.k8s.io',
        resource: 'leases',
        namespace: 'default',
        name: 'edge-1',
      }),
    ).toBe(false)
    expect(allowed({ resource: 'secrets', namespace: 'a', name: 's' })).toBe(false)
    expect(allowed({ verb: 'delete', resource: 'namespaces', name: 'a' })).toBe(false)
    expect(allowed({ resource: 'nodes', subresource: 'tunnel', name: 'edge-1' }, { name: 'alice', groups: [] })).toBe(
      false,
    )
  })
})
