// Objects as kube stores them, end to end: omitempty fields sent empty are neither stored, answered nor recorded in
// managedFields (create, update, merge patch, server-side apply), while fields Go tags without omitempty stay.
import { describe, expect, it } from 'vitest'
import { makeNamespace, req } from '../../helpers'
import { resourceByPlural } from '../../../src/registry/resources'
import { planCreate } from '../../../src/registry/store'
import type { KubeObject } from '../../../src/schema/meta'

const MERGE = { 'content-type': 'application/merge-patch+json' }
const APPLY = { 'content-type': 'application/apply-patch+yaml' }

const EMPTY_META = { finalizers: [], ownerReferences: [], labels: {}, annotations: {} }

describe('omitempty fields sent empty', () => {
  it('a ConfigMap keeps none of them, in its answer, its stored copy or its managedFields', async () => {
    const ns = await makeNamespace('omit')
    const path = `/api/v1/namespaces/${ns}/configmaps`
    const r = await req('POST', `${path}?fieldManager=m`, { metadata: { name: 'c', ...EMPTY_META }, data: {} })
    expect(r.status, r.text).toBe(201)
    for (const o of [r.json, (await req('GET', `${path}/c`)).json]) {
      expect(Object.keys(o.metadata).sort()).toEqual([
        'creationTimestamp',
        'name',
        'namespace',
        'resourceVersion',
        'uid',
      ])
      expect(o.data).toBeUndefined()
    }
    // Nothing to own: kube records no entry for a manager whose field set is empty.
    expect(r.json.metadata.managedFields).toBeUndefined()
  })

  it("a pod's empty hostname is neither kept nor owned", async () => {
    const ns = await makeNamespace('omit')
    const r = await req('POST', `/api/v1/namespaces/${ns}/pods`, {
      metadata: { name: 'p' },
      spec: { hostname: '', containers: [{ name: 'c', image: 'nginx' }] },
    })
    expect(r.status, r.text).toBe(201)
    expect('hostname' in r.json.spec).toBe(false)
    expect(JSON.stringify(r.json.metadata.managedFields)).not.toContain('f:hostname')
  })

  it('a merge patch or an update that empties them removes them', async () => {
    const ns = await makeNamespace('omit')
    const path = `/api/v1/namespaces/${ns}/configmaps/c`
    const c = await req('POST', `/api/v1/namespaces/${ns}/configmaps`, {
      metadata: { name: 'c', labels: { a: '1' } },
      data: { k: 'v' },
    })
    expect(c.status, c.text).toBe(201)
    const p = await req('PATCH', path, { metadata: { labels: { a: null }, finalizers: [] }, data: { k: null } }, MERGE)
    expect(p.status, p.text).toBe(200)
    expect(p.json.metadata.labels).toBeUndefined()
    expect(p.json.metadata.finalizers).toBeUndefined()
    expect(p.json.data).toBeUndefined()
    // The creator owned only what is now gone: its entry goes with its last field.
    expect(p.json.metadata.managedFields).toBeUndefined()
    const body = { ...p.json, metadata: { ...p.json.metadata, annotations: {} }, data: {}, binaryData: {} }
    const u = await req('PUT', path, body)
    expect(u.status, u.text).toBe(200)
    expect(u.json.metadata.annotations).toBeUndefined()
    expect(u.json.data).toBeUndefined()
    expect(u.json.binaryData).toBeUndefined()
  })

  it('a server-side apply result does not carry them either', async () => {
    const ns = await makeNamespace('omit')
    const yaml = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  labels: {}\n  finalizers: []\ndata: {}\n'
    const r = await req('PATCH', `/api/v1/namespaces/${ns}/configmaps/c?fieldManager=ssa`, yaml, APPLY)
    expect(r.status, r.text).toBe(201)
    expect(r.json.metadata.labels).toBeUndefined()
    expect(r.json.metadata.finalizers).toBeUndefined()
    expect(r.json.data).toBeUndefined()
  })

  it('fields without omitempty stay empty: a Role keeps rules: []', async () => {
    const ns = await makeNamespace('omit')
    const r = await req('POST', `/apis/rbac.authorization.k8s.io/v1/namespaces/${ns}/roles`, {
      metadata: { name: 'r', labels: {} },
      rules: [],
    })
    expect(r.status, r.text).toBe(201)
    expect(r.json.rules).toEqual([])
    expect(r.json.metadata.labels).toBeUndefined()
  })

  it("a controller's write (no body to decode) is stored as Go encodes it too", () => {
    const ctx = { now: new Date('2026-01-01T00:00:00Z'), namespace: 'default' }
    const rs = {
      metadata: { name: 'rs', labels: {}, finalizers: [] },
      spec: {
        replicas: 0,
        selector: { matchLabels: { a: 'b' } },
        minReadySeconds: 0,
        template: {
          metadata: { labels: { a: 'b' }, annotations: {} },
          spec: { containers: [{ name: 'c', image: 'i', args: [], workingDir: '' }], hostname: '' },
        },
      },
    } as unknown as KubeObject
    const planned = planCreate(resourceByPlural('replicasets')!, ctx, rs, () => false)
    if (!planned.ok) throw new Error(planned.status.message)
    const o = planned.value.object as Record<string, any>
    expect(o.metadata.labels).toBeUndefined()
    expect(o.metadata.finalizers).toBeUndefined()
    // ReplicaSetSpec.replicas is a *int32: its zero stays.
    expect(o.spec.replicas).toBe(0)
    expect('minReadySeconds' in o.spec).toBe(false)
    expect(o.spec.template.metadata).toEqual({ labels: { a: 'b' } })
    expect('hostname' in o.spec.template.spec).toBe(false)
    expect(o.spec.template.spec.containers[0].args).toBeUndefined()
    expect(o.spec.template.spec.containers[0].workingDir).toBeUndefined()
  })

  it('validation sees the decoded value, empty maps included, as kube validates its Go object', async () => {
    const ns = await makeNamespace('omit')
    const r = await req('POST', `/apis/apps/v1/namespaces/${ns}/deployments`, {
      metadata: { name: 'd' },
      spec: {
        selector: { matchLabels: {} },
        template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'i' }] } },
      },
    })
    expect(r.status, r.text).toBe(422)
    expect(r.json.message).toContain(
      'spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: empty selector is invalid for deployment',
    )
  })
})
