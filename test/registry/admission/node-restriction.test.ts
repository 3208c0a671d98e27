// NodeRestriction (kube's plugin/pkg/admission/noderestriction admission_test.go cases): what node "mynode" may write
// of pods, nodes, claims and leases, and kube's refusals word for word.
import { describe, expect, it } from 'vitest'
import {
  type NodeWrite,
  nodeRestriction,
  type Operation,
  type RequestingNode,
} from '../../../src/registry/admission/node-restriction'
import { forbiddenLabels, isKubeletLabel, modifiedLabels } from '../../../src/registry/admission/node-labels'
import type { KubeObject } from '../../../src/schema/meta'

const mynode: RequestingNode = { user: 'system:node:mynode', node: 'mynode', nodeUid: 'mynode-uid' }

type Obj = Record<string, any>
const write = (
  operation: Operation,
  resource: string,
  name: string,
  object: Obj | null,
  old: Obj | null = null,
  over: Partial<NodeWrite> = {},
): NodeWrite => ({
  operation,
  group: '',
  resource,
  subresource: '',
  namespace: 'ns',
  name,
  object: object as KubeObject | null,
  old: old as KubeObject | null,
  ...over,
})
const admit = (a: NodeWrite, node = mynode) => nodeRestriction(node, a)
const refusal = (a: NodeWrite, node = mynode) => {
  const s = admit(a, node)
  expect(s?.code).toBe(403)
  return s?.message
}

const owner = { apiVersion: 'v1', kind: 'Node', name: 'mynode', uid: 'mynode-uid', controller: true }
const mirror = (over: Obj = {}, spec: Obj = {}): Obj => ({
  metadata: {
    name: 'mirror',
    namespace: 'ns',
    annotations: { 'kubernetes.io/config.mirror': 'hash' },
    ownerReferences: [owner],
    ...over,
  },
  spec: { nodeName: 'mynode', containers: [{ name: 'c', image: 'x' }], ...spec },
})
const podOn = (node: string, labels: Obj = {}): Obj => ({
  metadata: { name: 'p', namespace: 'ns', labels },
  spec: { nodeName: node, containers: [{ name: 'c', image: 'x' }] },
  status: {},
})

describe('mirror pods', () => {
  const create = (pod: Obj) => write('CREATE', 'pods', pod.metadata.name, pod)

  it('lets a node create a mirror pod bound to and owned by itself', () => {
    expect(admit(create(mirror()))).toBeNull()
  })

  it('refuses other pods and mirror pods of other nodes', () => {
    const plain = mirror({ annotations: {} })
    expect(refusal(create(plain))).toBe(
      'pods "mirror" is forbidden: pod does not have "kubernetes.io/config.mirror" annotation, node "mynode" can only create mirror pods',
    )
    expect(refusal(create(mirror({}, { nodeName: 'othernode' })))).toBe(
      'pods "mirror" is forbidden: node "mynode" can only create pods with spec.nodeName set to itself',
    )
    expect(refusal(create(mirror({}, { nodeName: undefined })))).toBe(
      'pods "mirror" is forbidden: node "mynode" can only create pods with spec.nodeName set to itself',
    )
  })

  it('requires exactly one controlling owner reference to the node, with its uid', () => {
    const at = (...refs: Obj[]) => refusal(create(mirror({ ownerReferences: refs })))
    expect(at(owner, owner)).toBe(
      'pods "mirror" is forbidden: node "mynode" can only create pods with a single owner reference set to itself',
    )
    expect(at()).toBe(
      'pods "mirror" is forbidden: node "mynode" can only create pods with an owner reference set to itself',
    )
    expect(at({ ...owner, name: 'othernode' })).toBe(
      'pods "mirror" is forbidden: node "mynode" can only create pods with an owner reference set to itself',
    )
    expect(at({ ...owner, kind: 'Pod' })).toBe(
      'pods "mirror" is forbidden: node "mynode" can only create pods with an owner reference set to itself',
    )
    expect(at({ ...owner, controller: false })).toBe(
      'pods "mirror" is forbidden: node "mynode" can only create pods with a controller owner reference set to itself',
    )
    expect(at({ ...owner, blockOwnerDeletion: true })).toBe(
      'pods "mirror" is forbidden: node "mynode" must not set blockOwnerDeletion on an owner reference',
    )
    expect(at({ ...owner, uid: 'other-uid' })).toBe(
      'pods "mirror" is forbidden: node mynode UID mismatch: expected other-uid got mynode-uid',
    )
    // The Node does not exist: the informer's NotFound.
    const gone = admit(create(mirror()), { ...mynode, nodeUid: null })
    expect(gone?.code).toBe(404)
    expect(gone?.message).toBe('node "mynode" not found')
  })

  it('refuses mirror pods that name other objects', () => {
    const at = (spec: Obj) => refusal(create(mirror({}, spec)))
    expect(at({ serviceAccountName: 'foo' })).toBe(
      'pods "mirror" is forbidden: node "mynode" can not create pods that reference a service account',
    )
    expect(at({ volumes: [{ name: 's', secret: { secretName: 'foo' } }] })).toBe(
      'pods "mirror" is forbidden: node "mynode" can not create pods that reference secrets',
    )
    expect(at({ imagePullSecrets: [{ name: 'pull' }] })).toBe(
      'pods "mirror" is forbidden: node "mynode" can not create pods that reference secrets',
    )
    expect(at({ volumes: [{ name: 'c', configMap: { name: 'foo' } }] })).toBe(
      'pods "mirror" is forbidden: node "mynode" can not create pods that reference configmaps',
    )
    const bundle = { projected: { sources: [{ clusterTrustBundle: { name: 'b', path: 'p' } }] } }
    expect(at({ volumes: [{ name: 'b', ...bundle }] })).toBe(
      'pods "mirror" is forbidden: node "mynode" can not create pods that reference clustertrustbundles',
    )
    expect(at({ volumes: [{ name: 'd', persistentVolumeClaim: { claimName: 'foo' } }] })).toBe(
      'pods "mirror" is forbidden: node "mynode" can not create pods that reference persistentvolumeclaims',
    )
    expect(at({ resourceClaims: [{ name: 'r', resourceClaimName: 'claim' }] })).toBe(
      'pods "mirror" is forbidden: node "mynode" can not create pods that reference resourceclaims',
    )
  })
})

describe('pods', () => {
  it('deletes only pods bound to itself; the informer’s NotFound for a missing one', () => {
    expect(admit(write('DELETE', 'pods', 'p', null, podOn('mynode')))).toBeNull()
    expect(refusal(write('DELETE', 'pods', 'p', null, podOn('othernode')))).toBe(
      'pods "p" is forbidden: node "mynode" can only delete pods with spec.nodeName set to itself',
    )
    const missing = admit(write('DELETE', 'pods', 'gone', null, null))
    expect(missing).toMatchObject({ code: 404, reason: 'NotFound', message: 'pod "gone" not found' })
    expect(missing?.details).toEqual({ name: 'gone', kind: 'pod' })
  })

  it('never updates a pod itself', () => {
    expect(refusal(write('UPDATE', 'pods', 'p', podOn('mynode'), podOn('mynode')))).toBe(
      'pods "p" is forbidden: unexpected operation "UPDATE", node "mynode" can only create and delete mirror pods',
    )
  })

  it('updates the status of pods bound to itself, not their labels or resource claim statuses', () => {
    const status = (object: Obj, old: Obj) => write('UPDATE', 'pods', 'p', object, old, { subresource: 'status' })
    expect(admit(status(podOn('mynode'), podOn('mynode')))).toBeNull()
    expect(admit(status({ ...podOn('mynode'), metadata: { name: 'p' } }, podOn('mynode', {})))).toBeNull()
    expect(refusal(status(podOn('othernode'), podOn('othernode')))).toBe(
      'pods "p" is forbidden: node "mynode" can only update pod status for pods with spec.nodeName set to itself',
    )
    expect(refusal(status(podOn('mynode', { a: 'b' }), podOn('mynode')))).toBe(
      'pods "p" is forbidden: node "mynode" cannot update labels through pod status',
    )
    const claimed = { ...podOn('mynode'), status: { resourceClaimStatuses: [{ name: 'r', resourceClaimName: 'c' }] } }
    expect(refusal(status(claimed, podOn('mynode')))).toBe(
      'pods "p" is forbidden: node "mynode" cannot update resource claim statues',
    )
  })

  it('writes no other pod subresource', () => {
    const ephemeral = write('UPDATE', 'pods', 'p', podOn('mynode'), podOn('mynode'), {
      subresource: 'ephemeralcontainers',
    })
    expect(refusal(ephemeral)).toBe(
      `pods "p" is forbidden: unexpected pod subresource "ephemeralcontainers", only 'status' and 'eviction' are allowed`,
    )
  })
})

describe('nodes', () => {
  const node = (name: string, labels: Obj = {}, spec: Obj = {}, meta: Obj = {}): Obj => ({
    metadata: { name, labels, ...meta },
    spec,
  })
  const FORBIDDEN = {
    'node-restriction.kubernetes.io/foo': 'x',
    'foo.node-restriction.kubernetes.io/foo': 'x',
    'other.kubernetes.io/foo': 'x',
    'other.k8s.io/foo': 'x',
  }
  const ALLOWED = {
    'kubernetes.io/hostname': 'mynode',
    'topology.kubernetes.io/zone': 'z',
    'failure-domain.beta.kubernetes.io/region': 'r',
    'node.kubernetes.io/instance-type': 't',
    'beta.kubernetes.io/os': 'linux',
    'kubelet.kubernetes.io/foo': 'x',
    'foo.node.kubernetes.io/foo': 'x',
    'example.com/foo': 'x',
    plain: 'x',
  }

  it('registers only itself, with kubelet labels only', () => {
    expect(admit(write('CREATE', 'nodes', 'mynode', node('mynode', ALLOWED)))).toBeNull()
    expect(refusal(write('CREATE', 'nodes', 'othernode', node('othernode')))).toBe(
      'nodes "othernode" is forbidden: node "mynode" is not allowed to modify node "othernode"',
    )
    expect(refusal(write('CREATE', 'nodes', 'mynode', node('mynode', { ...ALLOWED, ...FORBIDDEN })))).toBe(
      'nodes "mynode" is forbidden: node "mynode" is not allowed to set the following labels: foo.node-restriction.kubernetes.io/foo, node-restriction.kubernetes.io/foo, other.k8s.io/foo, other.kubernetes.io/foo',
    )
    const config = node('mynode', {}, { configSource: { configMap: { name: 'c', namespace: 'ns' } } })
    expect(refusal(write('CREATE', 'nodes', 'mynode', config))).toBe(
      'nodes "mynode" is forbidden: node "mynode" is not allowed to create pods with a non-nil configSource',
    )
  })

  it('updates only itself: not its taints, owners, config source or reserved labels', () => {
    const update = (object: Obj, old: Obj, subresource = '') =>
      write('UPDATE', 'nodes', object.metadata.name, object, old, { subresource })
    expect(admit(update(node('mynode', ALLOWED), node('mynode')))).toBeNull()
    expect(admit(update(node('mynode', { ...FORBIDDEN }), node('mynode', { ...FORBIDDEN })))).toBeNull()
    expect(refusal(update(node('othernode'), node('othernode'), 'status'))).toBe(
      'nodes "othernode" is forbidden: node "mynode" is not allowed to modify node "othernode"',
    )
    const taint = { key: 'a', effect: 'NoSchedule' }
    expect(refusal(update(node('mynode', {}, { taints: [taint] }), node('mynode')))).toBe(
      'nodes "mynode" is forbidden: node "mynode" is not allowed to modify taints',
    )
    expect(refusal(update(node('mynode'), node('mynode', {}, { taints: [taint] }), 'status'))).toBe(
      'nodes "mynode" is forbidden: node "mynode" is not allowed to modify taints',
    )
    // nil and empty taints are the same (apiequality.Semantic).
    expect(admit(update(node('mynode', {}, { taints: [] }), node('mynode')))).toBeNull()
    const owned = node('mynode', {}, {}, { ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: 'x', uid: 'u' }] })
    expect(refusal(update(owned, node('mynode')))).toBe(
      'nodes "mynode" is forbidden: node "mynode" is not allowed to modify ownerReferences',
    )
    expect(refusal(update(node('mynode', FORBIDDEN), node('mynode')))).toBe(
      'nodes "mynode" is forbidden: is not allowed to modify labels: foo.node-restriction.kubernetes.io/foo, node-restriction.kubernetes.io/foo, other.k8s.io/foo, other.kubernetes.io/foo',
    )
    expect(refusal(update(node('mynode'), node('mynode', FORBIDDEN)))).toMatch(/is not allowed to modify labels: /)
    const config = { configMap: { name: 'c', namespace: 'ns' } }
    expect(refusal(update(node('mynode', {}, { configSource: config }), node('mynode')))).toBe(
      'nodes "mynode" is forbidden: node "mynode" is not allowed to update configSource to a new non-nil configSource',
    )
    expect(admit(update(node('mynode'), node('mynode', {}, { configSource: config })))).toBeNull()
  })

  it('deletes only itself (the authorizer refuses its own delete)', () => {
    expect(refusal(write('DELETE', 'nodes', 'othernode', null, node('othernode')))).toBe(
      'nodes "othernode" is forbidden: node "mynode" is not allowed to modify node "othernode"',
    )
    expect(admit(write('DELETE', 'nodes', 'mynode', null, node('mynode')))).toBeNull()
  })

  it('knows kubelet labels as k8s.io/kubelet does', () => {
    for (const key of Object.keys(ALLOWED).filter((k) => k.includes('kubernetes.io')))
      expect(isKubeletLabel(key)).toBe(true)
    expect(isKubeletLabel('node-role.kubernetes.io/master')).toBe(false)
    expect(forbiddenLabels(['node-role.kubernetes.io/master', 'example.com/x'])).toEqual([
      'node-role.kubernetes.io/master',
    ])
    expect(modifiedLabels({ a: '1', b: '2' }, { a: '1', b: '3', c: '4' }).sort()).toEqual(['b', 'c'])
    expect(modifiedLabels({ constructor: 'x' }, {})).toEqual(['constructor'])
  })
})

describe('claims and leases', () => {
  const claim = (status: Obj, meta: Obj = {}): Obj => ({
    metadata: { name: 'data', namespace: 'ns', resourceVersion: '1', ...meta },
    spec: { accessModes: ['ReadWriteOnce'] },
    status,
  })
  const statusWrite = (object: Obj, old: Obj) =>
    write('UPDATE', 'persistentvolumeclaims', 'data', object, old, { subresource: 'status' })

  it('a claim’s status: capacity, conditions and resize fields only', () => {
    const resized = claim({ phase: 'Bound', capacity: { storage: '2Gi' }, conditions: [{ type: 'Resizing' }] })
    expect(
      admit(
        statusWrite({ ...resized, metadata: { ...resized.metadata, resourceVersion: '2' } }, claim({ phase: 'Bound' })),
      ),
    ).toBeNull()
    expect(refusal(statusWrite(claim({ phase: 'Lost' }), claim({ phase: 'Bound' })))).toBe(
      'persistentvolumeclaims "data" is forbidden: node "mynode" is not allowed to update fields other than status.capacity and status.conditions: status.phase',
    )
    expect(refusal(statusWrite(claim({}, { labels: { a: 'b' } }), claim({})))).toMatch(/: metadata.labels$/)
    expect(refusal(write('UPDATE', 'persistentvolumeclaims', 'data', claim({}), claim({})))).toBe(
      'persistentvolumeclaims "data" is forbidden: may only update PVC status',
    )
  })

  it('only its own lease in kube-node-lease', () => {
    const lease = (name: string) => ({ metadata: { name, namespace: 'kube-node-lease' } })
    const at = (operation: Operation, name: string, namespace = 'kube-node-lease') =>
      write(operation, 'leases', operation === 'CREATE' ? '' : name, lease(name), null, {
        group: 'coordination.k8s.io',
        namespace,
      })
    for (const op of ['CREATE', 'UPDATE', 'DELETE'] as const) expect(admit(at(op, 'mynode'))).toBeNull()
    expect(refusal(at('CREATE', 'othernode'))).toBe(
      'leases.coordination.k8s.io "othernode" is forbidden: can only access node lease with the same name as the requesting node',
    )
    expect(refusal(at('UPDATE', 'othernode'))).toBe(
      'leases.coordination.k8s.io "othernode" is forbidden: can only access node lease with the same name as the requesting node',
    )
    expect(refusal(at('UPDATE', 'mynode', 'default'))).toBe(
      'leases.coordination.k8s.io "mynode" is forbidden: can only access leases in the "kube-node-lease" system namespace',
    )
  })

  it('leaves other resources alone, and refuses a node it cannot identify', () => {
    expect(admit(write('CREATE', 'configmaps', 'c', { metadata: { name: 'c' } }))).toBeNull()
    const anonymous = { user: 'system:node:', node: '' }
    expect(refusal(write('CREATE', 'configmaps', 'c', { metadata: { name: 'c' } }), anonymous)).toBe(
      'configmaps "c" is forbidden: could not determine node from user "system:node:"',
    )
  })
})
