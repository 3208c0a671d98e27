// LimitRanges and ResourceQuotas as a 1.33 server serves them: discovery (short names, storage version hashes,
// resourcequotas/status), their OpenAPI components, and the Tables kubectl prints (NAME CREATED AT; NAME AGE REQUEST
// LIMIT).
import { describe, expect, it } from 'vitest'
import { makeNamespace, req } from '../helpers'

const byName = (list: any) => Object.fromEntries(list.json.resources.map((r: any) => [r.name, r]))
const ALL_VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch']
const TABLE = { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' }

describe('the quota kinds', () => {
  it('are in core/v1 discovery with their short names', async () => {
    const core = byName(await req('GET', '/api/v1'))
    expect(core.limitranges).toEqual({
      name: 'limitranges',
      singularName: 'limitrange',
      namespaced: true,
      kind: 'LimitRange',
      verbs: ALL_VERBS,
      shortNames: ['limits'],
      storageVersionHash: 'EBKMFVe6cwo=',
    })
    expect(core.resourcequotas).toEqual({
      name: 'resourcequotas',
      singularName: 'resourcequota',
      namespaced: true,
      kind: 'ResourceQuota',
      verbs: ALL_VERBS,
      shortNames: ['quota'],
      storageVersionHash: '8uhSgffRX6w=',
    })
    expect(core['resourcequotas/status']).toMatchObject({ kind: 'ResourceQuota', verbs: ['get', 'patch', 'update'] })
  })

  it('are in the OpenAPI v3 document under kube names', async () => {
    const doc = (await req('GET', '/openapi/v3/api/v1')).json
    for (const name of [
      'LimitRange',
      'LimitRangeSpec',
      'LimitRangeItem',
      'ResourceQuota',
      'ResourceQuotaSpec',
      'ResourceQuotaStatus',
      'ScopeSelector',
      'ScopedResourceSelectorRequirement',
    ])
      expect(doc.components.schemas[`io.k8s.api.core.v1.${name}`], name).toBeDefined()
  })

  it('print as kubectl get limits and kubectl get quota show them', async () => {
    const ns = await makeNamespace('quota-table')
    const lr = await req('POST', `/api/v1/namespaces/${ns}/limitranges`, {
      apiVersion: 'v1',
      kind: 'LimitRange',
      metadata: { name: 'l' },
      spec: { limits: [{ type: 'Container', defaultRequest: { cpu: '100m' } }] },
    })
    expect(lr.status, lr.text).toBe(201)
    const limits = (await req('GET', `/api/v1/namespaces/${ns}/limitranges`, undefined, TABLE)).json
    expect(limits.columnDefinitions.map((c: any) => c.name)).toEqual(['Name', 'Created At'])
    expect(limits.rows[0].cells).toEqual(['l', lr.json.metadata.creationTimestamp])
    const q = await req('POST', `/api/v1/namespaces/${ns}/resourcequotas`, {
      apiVersion: 'v1',
      kind: 'ResourceQuota',
      metadata: { name: 'q' },
      spec: { hard: { configmaps: '10' } },
    })
    expect(q.status, q.text).toBe(201)
    const quota = (await req('GET', `/api/v1/namespaces/${ns}/resourcequotas`, undefined, TABLE)).json
    expect(quota.columnDefinitions.map((c: any) => c.name)).toEqual(['Name', 'Age', 'Request', 'Limit'])
    expect(quota.rows[0].cells[0]).toBe('q')
  })
})
