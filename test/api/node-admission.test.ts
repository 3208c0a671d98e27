// NodeRestriction through the Worker (kube's test/integration/auth/node_test.go, adapted): two nodes' own identities
// register and update only themselves, create and delete only their own mirror pods, write the status of and evict
// only their own pods, use only their own Lease, and ask tokens only for their own pods; kube's 403s, word for word.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makeNamespace, req } from '../helpers'

const suffix = Date.now().toString(36)
const node1 = `na-${suffix}-1`
const node2 = `na-${suffix}-2`
const as = (node: string) => ({ 'Impersonate-User': `system:node:${node}`, 'Impersonate-Group': 'system:nodes' })
const [n1, n2] = [as(node1), as(node2)]
const merge = { 'content-type': 'application/merge-patch+json' }
const strategic = { 'content-type': 'application/strategic-merge-patch+json' }

let ns = ''
let node2Uid = ''

/** A node as its agent registers it: kubelet labels; kept off the scheduler's list for other tests' pods. */
const nodeObject = (name: string, labels: Record<string, string> = {}) => ({
  metadata: { name, labels: { 'kubernetes.io/hostname': name, ...labels } },
  spec: { unschedulable: true, taints: [{ key: 'test.kubeflare.dev/admission', effect: 'NoSchedule' }] },
})

const mirrorPod = (name: string, node: string, uid: string) => ({
  metadata: {
    name,
    annotations: { 'kubernetes.io/config.mirror': 'hash' },
    ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: node, uid, controller: true }],
  },
  spec: { nodeName: node, containers: [{ name: 'c', image: 'x' }] },
})

const message = (r: { status: number; json: { message: string } }, code = 403) => {
  expect(r.status).toBe(code)
  return r.json.message
}

beforeAll(async () => {
  ns = await makeNamespace('admit')
  const r = await req('POST', '/api/v1/nodes', nodeObject(node2), n2)
  expect(r.status, r.text).toBe(201)
  node2Uid = r.json.metadata.uid
})

afterAll(async () => {
  for (const n of [node1, node2]) await req('DELETE', `/api/v1/nodes/${n}`)
})

describe('NodeRestriction through the Worker', () => {
  it('a node registers and updates only its own Node', async () => {
    expect(message(await req('POST', '/api/v1/nodes', nodeObject(node2), n1))).toBe(
      `nodes "${node2}" is forbidden: node "${node1}" is not allowed to modify node "${node2}"`,
    )
    const status = { status: { conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady' }] } }
    expect(message(await req('PATCH', `/api/v1/nodes/${node2}/status`, status, { ...n1, ...merge }))).toBe(
      `nodes "${node2}" is forbidden: node "${node1}" is not allowed to modify node "${node2}"`,
    )
    // A node that does not exist is not found before admission looks at it.
    expect(message(await req('PATCH', `/api/v1/nodes/${node1}-x/status`, status, { ...n1, ...merge }), 404)).toBe(
      `nodes "${node1}-x" not found`,
    )
    expect((await req('PATCH', `/api/v1/nodes/${node2}/status`, status, { ...n2, ...merge })).status).toBe(200)
    const relabel = { metadata: { labels: { 'node-role.kubernetes.io/control-plane': '' } } }
    expect(message(await req('PATCH', `/api/v1/nodes/${node2}`, relabel, { ...n2, ...merge }))).toBe(
      `nodes "${node2}" is forbidden: is not allowed to modify labels: node-role.kubernetes.io/control-plane`,
    )
    const untaint = { spec: { taints: null } }
    expect(message(await req('PATCH', `/api/v1/nodes/${node2}`, untaint, { ...n2, ...merge }))).toBe(
      `nodes "${node2}" is forbidden: node "${node2}" is not allowed to modify taints`,
    )
    expect(
      (
        await req(
          'PATCH',
          `/api/v1/nodes/${node2}`,
          { metadata: { labels: { 'example.com/x': 'y' } } },
          { ...n2, ...merge },
        )
      ).status,
    ).toBe(200)
    // Deleting itself is not what the authorizer lets a node do.
    expect(message(await req('DELETE', `/api/v1/nodes/${node2}`, undefined, n2))).toBe(
      `nodes "${node2}" is forbidden: User "system:node:${node2}" cannot delete resource "nodes" in API group "" at the cluster scope`,
    )
  })

  it('a node creates and deletes only its own mirror pods', async () => {
    const path = `/api/v1/namespaces/${ns}/pods`
    expect((await req('POST', path, mirrorPod('mirror', node2, node2Uid), n2)).status).toBe(201)
    expect(message(await req('POST', path, mirrorPod('m1', node2, node2Uid), n1))).toBe(
      `pods "m1" is forbidden: node "${node1}" can only create pods with spec.nodeName set to itself`,
    )
    expect(message(await req('POST', path, mirrorPod('stale', node2, 'not-the-uid'), n2))).toBe(
      `pods "stale" is forbidden: node ${node2} UID mismatch: expected not-the-uid got ${node2Uid}`,
    )
    const plain = { metadata: { name: 'plain' }, spec: { nodeName: node2, containers: [{ name: 'c', image: 'x' }] } }
    expect(message(await req('POST', path, plain, n2))).toBe(
      `pods "plain" is forbidden: pod does not have "kubernetes.io/config.mirror" annotation, node "${node2}" can only create mirror pods`,
    )
    // node1 has no Node: its mirror pod's owner cannot be checked.
    expect(message(await req('POST', path, mirrorPod('orphan', node1, 'x'), n1), 404)).toBe(`node "${node1}" not found`)
    expect(message(await req('DELETE', `${path}/mirror`, undefined, n1))).toBe(
      `pods "mirror" is forbidden: node "${node1}" can only delete pods with spec.nodeName set to itself`,
    )
    expect(message(await req('DELETE', `${path}/nothing`, undefined, n1), 404)).toBe('pod "nothing" not found')
    expect((await req('DELETE', `${path}/mirror?gracePeriodSeconds=0`, undefined, n2)).status).toBe(200)
  })

  it('a node writes the status of and evicts only its own pods', async () => {
    const path = `/api/v1/namespaces/${ns}/pods`
    const pod = {
      metadata: { name: 'work', labels: { app: 'w' } },
      spec: { nodeName: node2, containers: [{ name: 'c', image: 'x' }] },
    }
    expect((await req('POST', path, pod)).status).toBe(201)
    const status = { status: { phase: 'Running' } }
    expect((await req('PATCH', `${path}/work/status`, status, { ...n2, ...strategic })).status).toBe(200)
    expect(message(await req('PATCH', `${path}/work/status`, status, { ...n1, ...strategic }))).toBe(
      `pods "work" is forbidden: node "${node1}" can only update pod status for pods with spec.nodeName set to itself`,
    )
    const relabel = { metadata: { labels: { app: 'other' } } }
    expect(message(await req('PATCH', `${path}/work/status`, relabel, { ...n2, ...strategic }))).toBe(
      `pods "work" is forbidden: node "${node2}" cannot update labels through pod status`,
    )
    const eviction = (name: string) => ({
      apiVersion: 'policy/v1',
      kind: 'Eviction',
      metadata: { name, namespace: ns },
    })
    expect(message(await req('POST', `${path}/work/eviction`, eviction('work'), n1))).toBe(
      `pods "work" is forbidden: node ${node1} can only evict pods with spec.nodeName set to itself`,
    )
    expect(message(await req('POST', `${path}/missing/eviction`, eviction('missing'), n1), 404)).toBe(
      'pod "missing" not found',
    )
    expect((await req('POST', `${path}/work/eviction`, eviction('work'), n2)).status).toBe(201)
    // Through the v1beta1 API too.
    const beta = { id: 'beta', desiredState: { manifest: { containers: [{ name: 'c', image: 'x' }] } } }
    expect((await req('POST', `/api/v1beta1/pods?namespace=${ns}`, beta, n2)).status).toBe(403)
  })

  it('a node binds no pod, even when RBAC lets it', async () => {
    const rbac = '/apis/rbac.authorization.k8s.io/v1'
    const rule = { apiGroups: [''], resources: ['pods/binding'], verbs: ['create'] }
    expect(
      (await req('POST', `${rbac}/clusterroles`, { metadata: { name: `binder-${suffix}` }, rules: [rule] })).status,
    ).toBe(201)
    const subjects = [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: `system:node:${node2}` }]
    const roleRef = { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: `binder-${suffix}` }
    const granted = await req('POST', `${rbac}/clusterrolebindings`, {
      metadata: { name: `binder-${suffix}` },
      subjects,
      roleRef,
    })
    expect(granted.status).toBe(201)
    const pod = {
      metadata: { name: 'unbound' },
      spec: { schedulerName: 'none', containers: [{ name: 'c', image: 'x' }] },
    }
    expect((await req('POST', `/api/v1/namespaces/${ns}/pods`, pod)).status).toBe(201)
    const binding = {
      apiVersion: 'v1',
      kind: 'Binding',
      metadata: { name: 'unbound' },
      target: { kind: 'Node', name: node2 },
    }
    expect(message(await req('POST', `/api/v1/namespaces/${ns}/pods/unbound/binding`, binding, n2))).toBe(
      `pods "unbound" is forbidden: unexpected pod subresource "binding", only 'status' and 'eviction' are allowed`,
    )
  })

  it('a node uses only its own Lease', async () => {
    const leases = '/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases'
    const lease = (name: string) => ({ metadata: { name }, spec: { holderIdentity: name, leaseDurationSeconds: 40 } })
    expect(message(await req('POST', leases, lease(node1), n2))).toBe(
      `leases.coordination.k8s.io "${node1}" is forbidden: can only access node lease with the same name as the requesting node`,
    )
    expect((await req('POST', leases, lease(node1), n1)).status).toBe(201)
    const renew = { spec: { renewTime: '2025-01-01T00:00:00.000000Z' } }
    expect((await req('PATCH', `${leases}/${node1}`, renew, { ...n1, ...merge })).status).toBe(200)
    expect(message(await req('GET', `${leases}/${node1}`, undefined, n2))).toBe(
      `leases.coordination.k8s.io "${node1}" is forbidden: User "system:node:${node2}" cannot get resource "leases" in API group "coordination.k8s.io" in the namespace "kube-node-lease": can only access node lease with the same name as the requesting node`,
    )
    expect((await req('DELETE', `${leases}/${node1}`, undefined, n1)).status).toBe(200)
  })

  it('a node asks tokens only bound to its own pods, for audiences they use', async () => {
    expect((await req('POST', `/api/v1/namespaces/${ns}/serviceaccounts`, { metadata: { name: 'sa' } })).status).toBe(
      201,
    )
    const pod = {
      metadata: { name: 'tokened' },
      spec: {
        nodeName: node2,
        serviceAccountName: 'sa',
        containers: [{ name: 'c', image: 'x' }],
        volumes: [{ name: 't', projected: { sources: [{ serviceAccountToken: { path: 't', audience: 'vault' } }] } }],
      },
    }
    const created = await req('POST', `/api/v1/namespaces/${ns}/pods`, pod)
    expect(created.status).toBe(201)
    const ref = { apiVersion: 'v1', kind: 'Pod', name: 'tokened', uid: created.json.metadata.uid }
    const token = (spec: object) => ({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec })
    const path = `/api/v1/namespaces/${ns}/serviceaccounts/sa/token`
    expect((await req('POST', path, token({ audiences: ['vault'], boundObjectRef: ref }), n2)).status).toBe(201)
    expect(message(await req('POST', path, token({ audiences: ['vault'] }), n2))).toBe(
      'serviceaccounts "sa" is forbidden: node requested token not bound to a pod',
    )
    expect(message(await req('POST', path, token({ audiences: ['other'], boundObjectRef: ref }), n2))).toBe(
      `serviceaccounts "sa" is forbidden: audience "other" not found in pod spec volume, system:node:${node2} is not authorized to request tokens for this audience`,
    )
    // node1 runs no pod of this account: the authorizer refuses first.
    expect(message(await req('POST', path, token({ audiences: ['vault'], boundObjectRef: ref }), n1))).toBe(
      `serviceaccounts "sa" is forbidden: User "system:node:${node1}" cannot create resource "serviceaccounts/token" in API group "" in the namespace "${ns}": no relationship found between node '${node1}' and this object`,
    )
  })
})
