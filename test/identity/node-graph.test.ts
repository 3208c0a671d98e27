// The Node authorizer over the graph the Durable Objects index (src/identity/node-graph.ts), through the Worker: a
// node reads what pods bound to it name (directly, and through a claim's volume), nothing else, with kube's 403.
import { beforeAll, describe, expect, it } from 'vitest'
import { makeNamespace, req } from '../helpers'

const asNode = (node: string) => ({ 'Impersonate-User': `system:node:${node}`, 'Impersonate-Group': 'system:nodes' })
const edgeA = asNode('edge-a')

let ns = ''
const suffix = Date.now().toString(36)
const volume = `pv-${suffix}`

const create = async (path: string, body: unknown) => {
  const r = await req('POST', path, body)
  expect(r.status, r.text).toBe(201)
  return r.json
}

const forbidden = (what: string, name: string, verb = 'get') =>
  `${what} "${name}" is forbidden: User "system:node:edge-a" cannot ${verb} resource "${what}" in API group "" in the namespace "${ns}": no relationship found between node 'edge-a' and this object`

beforeAll(async () => {
  ns = await makeNamespace('graph')
  for (const name of ['used', 'unused', 'env', 'pv-secret'])
    await create(`/api/v1/namespaces/${ns}/secrets`, { metadata: { name }, stringData: { k: 'v' } })
  for (const name of ['cm', 'other-cm']) await create(`/api/v1/namespaces/${ns}/configmaps`, { metadata: { name } })
  await create(`/api/v1/namespaces/${ns}/persistentvolumeclaims`, {
    metadata: { name: 'data' },
    spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
  })
  await create('/api/v1/persistentvolumes', {
    metadata: { name: volume },
    spec: {
      capacity: { storage: '1Gi' },
      accessModes: ['ReadWriteOnce'],
      claimRef: { namespace: ns, name: 'data' },
      csi: { driver: 'd.example.com', volumeHandle: 'h', nodePublishSecretRef: { name: 'pv-secret', namespace: ns } },
    },
  })
  await create(`/api/v1/namespaces/${ns}/pods`, {
    metadata: { name: 'worker' },
    spec: {
      nodeName: 'edge-a',
      containers: [{ name: 'c', image: 'x', envFrom: [{ secretRef: { name: 'env' } }] }],
      volumes: [
        { name: 's', secret: { secretName: 'used' } },
        { name: 'c', configMap: { name: 'cm' } },
        { name: 'd', persistentVolumeClaim: { claimName: 'data' } },
      ],
    },
  })
})

describe('the Node authorizer over the indexed graph', () => {
  it('a node reads the secrets and configmaps its pods name, and no other', async () => {
    for (const name of ['used', 'env'])
      expect((await req('GET', `/api/v1/namespaces/${ns}/secrets/${name}`, undefined, edgeA)).status).toBe(200)
    expect((await req('GET', `/api/v1/namespaces/${ns}/configmaps/cm`, undefined, edgeA)).status).toBe(200)
    const unused = await req('GET', `/api/v1/namespaces/${ns}/secrets/unused`, undefined, edgeA)
    expect(unused.status).toBe(403)
    expect(unused.json.message).toBe(forbidden('secrets', 'unused'))
    expect(unused.json.reason).toBe('Forbidden')
    const other = await req('GET', `/api/v1/namespaces/${ns}/configmaps/other-cm`, undefined, edgeA)
    expect(other.json.message).toBe(forbidden('configmaps', 'other-cm'))
    // Another node gets nothing of this pod's.
    const b = await req('GET', `/api/v1/namespaces/${ns}/secrets/used`, undefined, asNode('edge-b'))
    expect(b.status).toBe(403)
    expect(b.json.message).toMatch(/no relationship found between node 'edge-b' and this object$/)
  })

  it('a named watch of a referenced secret is allowed, a list of them all is not', async () => {
    const named = await req(
      'GET',
      `/api/v1/namespaces/${ns}/secrets?fieldSelector=metadata.name%3Dused`,
      undefined,
      edgeA,
    )
    expect(named.status).toBe(200)
    expect(named.json.items.map((s: { metadata: { name: string } }) => s.metadata.name)).toEqual(['used'])
    const all = await req('GET', `/api/v1/namespaces/${ns}/secrets`, undefined, edgeA)
    expect(all.status).toBe(403)
    expect(all.json.message).toBe(
      `secrets is forbidden: User "system:node:edge-a" cannot list resource "secrets" in API group "" in the namespace "${ns}": No Object name found`,
    )
  })

  it('claims, their volume, and the volume’s secrets lead to the node', async () => {
    expect((await req('GET', `/api/v1/namespaces/${ns}/persistentvolumeclaims/data`, undefined, edgeA)).status).toBe(
      200,
    )
    expect((await req('GET', `/api/v1/persistentvolumes/${volume}`, undefined, edgeA)).status).toBe(200)
    expect((await req('GET', `/api/v1/namespaces/${ns}/secrets/pv-secret`, undefined, edgeA)).status).toBe(200)
    const b = await req('GET', `/api/v1/persistentvolumes/${volume}`, undefined, asNode('edge-b'))
    expect(b.json.message).toBe(
      `persistentvolumes "${volume}" is forbidden: User "system:node:edge-b" cannot get resource "persistentvolumes" in API group "" at the cluster scope: no relationship found between node 'edge-b' and this object`,
    )
  })

  it('pods: its own by name and by the spec.nodeName selector, not others’', async () => {
    expect((await req('GET', `/api/v1/namespaces/${ns}/pods/worker`, undefined, edgeA)).status).toBe(200)
    const mine = await req('GET', '/api/v1/pods?fieldSelector=spec.nodeName%3Dedge-a', undefined, edgeA)
    expect(mine.status).toBe(200)
    expect(mine.json.items.map((p: { metadata: { name: string } }) => p.metadata.name)).toContain('worker')
    const all = await req('GET', '/api/v1/pods', undefined, edgeA)
    expect(all.json.message).toBe(
      'pods is forbidden: User "system:node:edge-a" cannot list resource "pods" in API group "" at the cluster scope: can only list/watch pods with spec.nodeName field selector',
    )
    const theirs = await req('GET', `/api/v1/namespaces/${ns}/pods/worker`, undefined, asNode('edge-b'))
    expect(theirs.status).toBe(403)
  })

  it('a pod deleted stops granting at once', async () => {
    await create(`/api/v1/namespaces/${ns}/pods`, {
      metadata: { name: 'brief' },
      spec: {
        nodeName: 'edge-c',
        containers: [{ name: 'c', image: 'x' }],
        volumes: [{ name: 's', secret: { secretName: 'unused' } }],
      },
    })
    const edgeC = asNode('edge-c')
    expect((await req('GET', `/api/v1/namespaces/${ns}/secrets/unused`, undefined, edgeC)).status).toBe(200)
    const gone = await req('DELETE', `/api/v1/namespaces/${ns}/pods/brief?gracePeriodSeconds=0`)
    expect(gone.status).toBe(200)
    expect((await req('GET', `/api/v1/namespaces/${ns}/secrets/unused`, undefined, edgeC)).status).toBe(403)
  })

  it('a SubjectAccessReview asks the Node authorizer too, field selector included', async () => {
    const review = async (fieldSelector?: object) => {
      const resourceAttributes = {
        verb: 'list',
        resource: 'pods',
        version: 'v1',
        ...(fieldSelector ? { fieldSelector } : {}),
      }
      const r = await req('POST', '/apis/authorization.k8s.io/v1/subjectaccessreviews', {
        apiVersion: 'authorization.k8s.io/v1',
        kind: 'SubjectAccessReview',
        spec: { user: 'system:node:edge-a', groups: ['system:nodes'], resourceAttributes },
      })
      expect(r.status).toBe(201)
      return r.json.status
    }
    expect((await review({ rawSelector: 'spec.nodeName=edge-a' })).allowed).toBe(true)
    const requirements = [{ key: 'spec.nodeName', operator: 'In', values: ['edge-a'] }]
    expect((await review({ requirements })).allowed).toBe(true)
    expect(await review()).toEqual({
      allowed: false,
      reason: 'can only list/watch pods with spec.nodeName field selector',
    })
  })

  it('a node’s SelfSubjectRulesReview is incomplete, as kube’s Node authorizer cannot list rules', async () => {
    const r = await req(
      'POST',
      '/apis/authorization.k8s.io/v1/selfsubjectrulesreviews',
      { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectRulesReview', spec: { namespace: ns } },
      edgeA,
    )
    expect(r.status).toBe(201)
    expect(r.json.status.incomplete).toBe(true)
    expect(r.json.status.evaluationError).toBe('node authorizer does not support user rule resolution')
  })
})
