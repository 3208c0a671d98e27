// The Node authorizer's decisions (kube's node_authorizer_test.go cases, selector authorization on as in 1.33) over a
// graph given as data: node0 runs pod0-node0 in ns0, which names the objects *-pod0-node0; node1 runs pod0-node1.
import { describe, expect, it } from 'vitest'
import {
  type NodeGraph,
  nodeAuthorize,
  nodeIdentity,
  nodeOf,
  type VertexType,
} from '../../src/identity/node-authorizer'
import type { Attributes } from '../../src/registry/rbac/attributes'
import { parseFieldSelector } from '../../src/registry/field-selector'
import { bootstrapPolicy } from '../../src/registry/rbac/bootstrap-policy'

const node0 = { name: 'system:node:node0', groups: ['system:nodes', 'system:authenticated'] }
const unregistered = { name: 'system:node:nodeunregistered', groups: ['system:nodes'] }

/** Vertex `type/namespace/name` → the node it leads to. */
const EDGES: Record<string, string> = {
  'configmap/ns0/configmap0-pod0-node0': 'node0',
  'secret/ns0/secret0-pod0-node0': 'node0',
  'secret/ns0/secret0-shared': 'node0',
  'secret/ns0/secret-pv0-pod0-node0-ns0': 'node0',
  'pvc/ns0/pvc0-pod0-node0': 'node0',
  'pv//pv0-pod0-node0-ns0': 'node0',
  'resourceclaim/ns0/claim0-pod0-node0-ns0': 'node0',
  'serviceAccount/ns0/svcacct0-node0': 'node0',
  'pod/ns0/pod0-node0': 'node0',
  'configmap/ns0/configmap0-pod0-node1': 'node1',
  'secret/ns0/secret0-pod0-node1': 'node1',
  'pvc/ns0/pvc0-pod0-node1': 'node1',
  'pv//pv0-pod0-node1-ns0': 'node1',
  'serviceAccount/ns0/svcacct0-node1': 'node1',
  'pod/ns0/pod0-node1': 'node1',
}

const asked: string[] = []
const graph: NodeGraph = {
  async reaches(node: string, type: VertexType, namespace: string, name: string) {
    asked.push(`${type}/${namespace}/${name}`)
    return EDGES[`${type}/${namespace}/${name}`] === node
  },
}

const attrs = (a: Partial<Attributes>, user = node0): Attributes => ({
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
const fields = (s: string) => {
  const parsed = parseFieldSelector(s)
  if (!parsed.ok) throw new Error(parsed.message)
  return parsed.selector.requirements
}
const decide = (a: Partial<Attributes>, user = node0) => nodeAuthorize(attrs(a, user), graph)
const allowed = async (a: Partial<Attributes>, user = node0) => (await decide(a, user)).allowed
const reason = async (a: Partial<Attributes>, user = node0) => {
  const d = await decide(a, user)
  expect(d.allowed).toBe(false)
  return d.reason
}

const NO_RELATIONSHIP = "no relationship found between node 'node0' and this object"
const lease = { apiGroup: 'coordination.k8s.io', resource: 'leases', namespace: 'kube-node-lease' }
const csi = { apiGroup: 'storage.k8s.io', resource: 'csinodes' }
const slices = { apiGroup: 'resource.k8s.io', resource: 'resourceslices' }

describe('node identity', () => {
  it('is a system:node:<name> user in system:nodes; the name may be empty', () => {
    expect(nodeIdentity(node0)).toEqual({ isNode: true, node: 'node0' })
    expect(nodeIdentity({ name: 'system:node:', groups: ['system:nodes'] })).toEqual({ isNode: true, node: '' })
    expect(nodeIdentity({ name: 'system:node:node0', groups: [] }).isNode).toBe(false)
    expect(nodeIdentity({ name: 'alice', groups: ['system:nodes'] }).isNode).toBe(false)
    expect(nodeOf(node0)).toBe('node0')
    expect(nodeOf({ name: 'system:node:', groups: ['system:nodes'] })).toBeNull()
  })

  it('has no opinion on others, and names a node it cannot identify', async () => {
    expect(await decide({ resource: 'secrets', namespace: 'ns0', name: 'x' }, { name: 'alice', groups: [] })).toEqual({
      allowed: false,
      reason: '',
    })
    expect(await reason({ resource: 'nodes', name: 'x' }, { name: 'system:node:', groups: ['system:nodes'] })).toBe(
      'unknown node for user "system:node:"',
    )
  })
})

describe('objects reached through the graph', () => {
  it('allows what a pod bound to the node names, and nothing else', async () => {
    expect(await allowed({ resource: 'configmaps', name: 'configmap0-pod0-node0', namespace: 'ns0' })).toBe(true)
    expect(await allowed({ resource: 'secrets', name: 'secret0-pod0-node0', namespace: 'ns0' })).toBe(true)
    expect(await allowed({ verb: 'list', resource: 'secrets', name: 'secret0-pod0-node0', namespace: 'ns0' })).toBe(
      true,
    )
    expect(await allowed({ verb: 'watch', resource: 'secrets', name: 'secret0-pod0-node0', namespace: 'ns0' })).toBe(
      true,
    )
    expect(await allowed({ resource: 'secrets', name: 'secret0-shared', namespace: 'ns0' })).toBe(true)
    expect(await allowed({ resource: 'secrets', name: 'secret-pv0-pod0-node0-ns0', namespace: 'ns0' })).toBe(true)
    expect(await allowed({ resource: 'persistentvolumeclaims', name: 'pvc0-pod0-node0', namespace: 'ns0' })).toBe(true)
    expect(await allowed({ resource: 'persistentvolumes', name: 'pv0-pod0-node0-ns0' })).toBe(true)
    const claim = { apiGroup: 'resource.k8s.io', resource: 'resourceclaims', namespace: 'ns0' }
    expect(await allowed({ ...claim, name: 'claim0-pod0-node0-ns0' })).toBe(true)

    expect(await reason({ resource: 'configmaps', name: 'configmap0-pod0-node1', namespace: 'ns0' })).toBe(
      NO_RELATIONSHIP,
    )
    expect(await reason({ resource: 'secrets', name: 'secret0-pod0-node1', namespace: 'ns0' })).toBe(NO_RELATIONSHIP)
    expect(await reason({ resource: 'persistentvolumeclaims', name: 'pvc0-pod0-node1', namespace: 'ns0' })).toBe(
      NO_RELATIONSHIP,
    )
    expect(await reason({ resource: 'persistentvolumes', name: 'pv0-pod0-node1-ns0' })).toBe(NO_RELATIONSHIP)
    expect(await reason({ ...claim, name: 'claim0-pod0-node1-ns0' })).toBe(NO_RELATIONSHIP)
    // No VolumeAttachments are served: none can lead to a node.
    const attachment = { apiGroup: 'storage.k8s.io', resource: 'volumeattachments', name: 'attachment0-node0' }
    expect(await reason(attachment)).toBe(NO_RELATIONSHIP)
  })

  it('reads only single named objects of a namespace, no subresources, no writes', async () => {
    expect(await reason({ verb: 'list', resource: 'secrets', namespace: 'ns0' })).toBe('No Object name found')
    expect(await reason({ verb: 'watch', resource: 'secrets', namespace: 'ns0' })).toBe('No Object name found')
    expect(await reason({ verb: 'list', resource: 'secrets', name: 'secret0-pod0-node0' })).toBe(
      'can only read namespaced object of this type',
    )
    expect(await reason({ verb: 'update', resource: 'secrets', name: 'secret0-pod0-node0', namespace: 'ns0' })).toBe(
      'can only read resources of this type',
    )
    expect(
      await reason({ resource: 'configmaps', subresource: 'x', name: 'configmap0-pod0-node0', namespace: 'ns0' }),
    ).toBe('cannot read subresource')
    expect(await reason({ verb: 'list', resource: 'persistentvolumes' })).toBe(
      'can only get individual resources of this type',
    )
    expect(await reason({ resource: 'persistentvolumes', subresource: 'status', name: 'pv0-pod0-node0-ns0' })).toBe(
      'cannot get subresource',
    )
  })

  it('writes the status of claims its pods use, nothing else of them', async () => {
    const status = { resource: 'persistentvolumeclaims', subresource: 'status', namespace: 'ns0' }
    expect(await allowed({ ...status, verb: 'patch', name: 'pvc0-pod0-node0' })).toBe(true)
    expect(await allowed({ ...status, verb: 'update', name: 'pvc0-pod0-node0' })).toBe(true)
    expect(await reason({ ...status, verb: 'patch', name: 'pvc0-pod0-node1' })).toBe(NO_RELATIONSHIP)
    expect(await reason({ ...status, verb: 'get', name: 'pvc0-pod0-node0' })).toBe(
      'can only get/update/patch this type',
    )
  })

  it('asks tokens only for the service accounts its pods run as', async () => {
    const token = { verb: 'create', resource: 'serviceaccounts', subresource: 'token', namespace: 'ns0' }
    expect(await allowed({ ...token, name: 'svcacct0-node0' })).toBe(true)
    expect(await reason({ ...token, name: 'svcacct0-node1' })).toBe(NO_RELATIONSHIP)
    expect(await reason({ ...token, subresource: '', name: 'svcacct0-node0' })).toBe(
      'can only create token subresource of serviceaccount',
    )
    expect(await reason({ ...token, verb: 'update', name: 'svcacct0-node0' })).toBe(
      'can only create tokens for individual service accounts',
    )
    expect(await reason({ ...token, verb: 'get', subresource: '', name: 'svcacct0-node0' })).toBe(
      'can only create tokens for individual service accounts',
    )
  })
})

describe('its own Lease and CSINode', () => {
  it('uses only its own lease in kube-node-lease', async () => {
    for (const verb of ['get', 'create', 'update', 'patch', 'delete'])
      expect(await allowed({ ...lease, verb, name: 'node0' })).toBe(true)
    expect(await allowed({ ...lease, verb: 'create' })).toBe(true)
    for (const verb of ['get', 'update', 'patch', 'delete'])
      expect(await reason({ ...lease, verb, name: 'node1' })).toBe(
        'can only access node lease with the same name as the requesting node',
      )
    for (const verb of ['list', 'watch'])
      expect(await reason({ ...lease, verb })).toBe('can only get, create, update, patch, or delete a node lease')
    expect(await reason({ ...lease, namespace: 'foo', name: 'node0' })).toBe(
      'can only access leases in the "kube-node-lease" system namespace',
    )
  })

  it('uses only its own CSINode', async () => {
    for (const verb of ['get', 'create', 'update', 'patch', 'delete'])
      expect(await allowed({ ...csi, verb, name: 'node0' })).toBe(true)
    expect(await reason({ ...csi, verb: 'update', name: 'node1' })).toBe(
      'can only access CSINode with the same name as the requesting node',
    )
    expect(await reason({ ...csi, subresource: 'csiDrivers', name: 'node0' })).toBe(
      'cannot authorize CSINode subresources',
    )
    expect(await reason({ ...csi, verb: 'list' })).toBe('can only get, create, update, patch, or delete a CSINode')
  })

  it('creates ResourceSlices, lists only its own', async () => {
    expect(await allowed({ ...slices, verb: 'create', name: 'slice0-node0' })).toBe(true)
    expect(await allowed({ ...slices, verb: 'list', fieldSelector: fields('nodeName==node0') })).toBe(true)
    expect(await allowed({ ...slices, verb: 'watch', fieldSelector: fields('nodeName=node0') })).toBe(true)
    expect(await reason({ ...slices, verb: 'list' })).toBe(
      'can only list/watch/deletecollection resourceslices with nodeName field selector',
    )
    expect(await reason({ ...slices, verb: 'list', fieldSelector: fields('nodeName!=node0') })).toBe(
      'can only list/watch/deletecollection resourceslices with nodeName field selector',
    )
    expect(await reason({ ...slices, verb: 'get', name: 'slice0-node1' })).toBe(NO_RELATIONSHIP)
    expect(await reason({ ...slices, subresource: 'status', name: 'slice0-node0' })).toBe(
      'cannot authorize ResourceSlice subresources',
    )
  })
})

describe('pods', () => {
  it('gets only pods bound to it; lists and watches them by spec.nodeName', async () => {
    const pods = { resource: 'pods', namespace: 'ns0' }
    expect(await allowed({ ...pods, name: 'pod0-node0' })).toBe(true)
    expect(await reason({ ...pods, name: 'pod0-node1' })).toBe(NO_RELATIONSHIP)
    for (const verb of ['list', 'watch']) {
      expect(await allowed({ resource: 'pods', verb, fieldSelector: fields('spec.nodeName=node0') })).toBe(true)
      expect(await allowed({ resource: 'pods', verb, fieldSelector: fields('spec.nodeName==node0') })).toBe(true)
      expect(await allowed({ ...pods, verb, name: 'pod0-node0' })).toBe(true)
      expect(await reason({ resource: 'pods', verb })).toBe(
        'can only list/watch pods with spec.nodeName field selector',
      )
      expect(await reason({ resource: 'pods', verb, fieldSelector: fields('spec.nodeName=node1') })).toBe(
        'can only list/watch pods with spec.nodeName field selector',
      )
    }
  })

  it('creates and deletes pods, writes status, evicts: NodeRestriction narrows them', async () => {
    const pods = { resource: 'pods', namespace: 'ns0' }
    expect(await allowed({ ...pods, verb: 'create' })).toBe(true)
    expect(await allowed({ ...pods, verb: 'delete', name: 'pod0-node1' })).toBe(true)
    expect(await allowed({ ...pods, verb: 'update', subresource: 'status', name: 'pod0-node1' })).toBe(true)
    expect(await allowed({ ...pods, verb: 'patch', subresource: 'status', name: 'pod0-node0' })).toBe(true)
    expect(await allowed({ ...pods, verb: 'create', subresource: 'eviction', name: 'pod0-node1' })).toBe(true)
    expect(await reason({ ...pods, verb: 'get', subresource: 'status', name: 'pod0-node0' })).toBe('')
    expect(await reason({ ...pods, verb: 'create', subresource: 'proxy' })).toBe('')
    expect(await reason({ ...pods, verb: 'update', name: 'pod0-node0' })).toBe('')
    expect(await reason({ ...pods, verb: 'create', subresource: 'binding', name: 'pod0-node0' })).toBe('')
  })
})

describe('nodes', () => {
  it('registers and updates nodes (NodeRestriction narrows), reads only its own', async () => {
    expect(await allowed({ resource: 'nodes', name: 'nodeunregistered' }, unregistered)).toBe(true)
    expect(await allowed({ resource: 'nodes', name: 'node0' })).toBe(true)
    expect(await allowed({ verb: 'list', resource: 'nodes', name: 'node0' })).toBe(true)
    expect(await allowed({ verb: 'create', resource: 'nodes' })).toBe(true)
    expect(await allowed({ verb: 'patch', resource: 'nodes', name: 'node1' })).toBe(true)
    expect(await allowed({ verb: 'update', resource: 'nodes', subresource: 'status', name: 'node1' })).toBe(true)
    expect(await reason({ resource: 'nodes', name: 'node1' })).toBe(
      "node 'node0' cannot read 'node1', only its own Node object",
    )
    expect(await reason({ verb: 'list', resource: 'nodes' })).toBe(
      "node 'node0' cannot read all nodes, only its own Node object",
    )
    expect(await reason({ verb: 'watch', resource: 'nodes' })).toBe(
      "node 'node0' cannot read all nodes, only its own Node object",
    )
    expect(await reason({ verb: 'delete', resource: 'nodes', name: 'node0' })).toBe('')
    expect(await reason({ resource: 'nodes', subresource: 'status', name: 'node0' })).toBe('')
  })

  it('opens only its own tunnel (kubeflare’s subresource)', async () => {
    expect(await allowed({ resource: 'nodes', subresource: 'tunnel', name: 'node0' })).toBe(true)
    expect(await reason({ resource: 'nodes', subresource: 'tunnel', name: 'node1' })).toBe('')
  })
})

describe('everything else', () => {
  it('is what the system:node role allows', async () => {
    expect(await allowed({ verb: 'watch', resource: 'services' })).toBe(true)
    expect(await allowed({ verb: 'create', resource: 'events', namespace: 'ns0' })).toBe(true)
    expect(await allowed({ resource: 'endpoints', namespace: 'ns0', name: 'kubernetes' })).toBe(true)
    expect(await allowed({ verb: 'create', apiGroup: 'authentication.k8s.io', resource: 'tokenreviews' })).toBe(true)
    expect(await reason({ verb: 'list', resource: 'endpoints', namespace: 'ns0' })).toBe('')
    expect(await reason({ verb: 'delete', resource: 'namespaces', name: 'ns0' })).toBe('')
    expect(await reason({ resourceRequest: false, verb: 'get', path: '/healthz' })).toBe('')
  })

  it('asks the graph only about the object a request names', async () => {
    asked.length = 0
    await decide({ resource: 'secrets', name: 'secret0-pod0-node0', namespace: 'ns0' })
    await decide({ verb: 'list', resource: 'secrets', namespace: 'ns0' })
    await decide({ verb: 'watch', resource: 'services' })
    expect(asked).toEqual(['secret/ns0/secret0-pod0-node0'])
  })
})

describe('the bootstrap policy a node meets', () => {
  it('binds the system:node role to no one, as kube 1.33: nodes get what the Node authorizer grants', () => {
    const policy = bootstrapPolicy()
    const binding = policy.clusterRoleBindings.find((b) => b.metadata?.name === 'system:node')
    expect(binding?.subjects ?? []).toEqual([])
    const bindings = [...policy.clusterRoleBindings, ...policy.roleBindings]
    const toNodes = bindings.filter((b) => (b.subjects ?? []).some((s) => s.name === 'system:nodes'))
    expect(toNodes.map((b) => b.metadata?.name)).toEqual([])
  })
})
