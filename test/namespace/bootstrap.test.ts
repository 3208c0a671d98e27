// What kube keeps in place: the system namespaces and `default/kubernetes` (service, Endpoints, EndpointSlice)
// exist from the very first request, whatever it is, and come back within seconds after someone deletes them.
import { describe, expect, it } from 'vitest'
import { req, waitFor } from '../helpers'

const DEFAULT = '/api/v1/namespaces/default'

describe('bootstrap objects', () => {
  // This file's first request: nothing has woken the cluster before it.
  it('exist from the first request, whatever that request is', async () => {
    const slice = await req('GET', '/apis/discovery.k8s.io/v1/namespaces/default/endpointslices/kubernetes')
    expect(slice.status, slice.text).toBe(200)
    expect(slice.json).toMatchObject({
      metadata: { name: 'kubernetes', namespace: 'default', labels: { 'kubernetes.io/service-name': 'kubernetes' } },
      addressType: 'IPv4',
      endpoints: [{ addresses: ['10.0.0.2'], conditions: { ready: true } }],
      ports: [{ name: 'https', port: 6443, protocol: 'TCP' }],
    })
    const endpoints = await req('GET', `${DEFAULT}/endpoints/kubernetes`)
    expect(endpoints.status, endpoints.text).toBe(200)
    expect(endpoints.json.subsets).toEqual([
      { addresses: [{ ip: '10.0.0.2' }], ports: [{ name: 'https', port: 6443, protocol: 'TCP' }] },
    ])
    expect(endpoints.json.metadata.labels).toEqual({ 'endpointslice.kubernetes.io/skip-mirror': 'true' })
    const service = await req('GET', `${DEFAULT}/services/kubernetes`)
    expect(service.status, service.text).toBe(200)
    expect(service.json.spec.clusterIP).toBe('10.96.0.1')
    const namespaces = await req('GET', '/api/v1/namespaces')
    expect(namespaces.json.items.map((n: { metadata: { name: string } }) => n.metadata.name)).toEqual(
      expect.arrayContaining(['default', 'kube-node-lease', 'kube-public', 'kube-system']),
    )
  })

  it('a deleted kubernetes service, Endpoints or EndpointSlice is re-created', async () => {
    for (const path of [
      `${DEFAULT}/services/kubernetes`,
      `${DEFAULT}/endpoints/kubernetes`,
      '/apis/discovery.k8s.io/v1/namespaces/default/endpointslices/kubernetes',
    ]) {
      // Deleting the service takes its Endpoints with it until the controller puts them back: wait for each.
      const before = await waitFor(`${path} to exist`, async () => {
        const g = await req('GET', path)
        return g.status === 200 ? g : undefined
      })
      const d = await req('DELETE', path)
      expect(d.status, d.text).toBe(200)
      const again = await waitFor(`${path} to come back`, async () => {
        const g = await req('GET', path)
        return g.status === 200 && g.json.metadata.uid !== before.json.metadata.uid ? g.json : undefined
      })
      expect(again.metadata.name).toBe('kubernetes')
    }
    // The service gets the first address back: it was released when the old one went.
    expect((await req('GET', `${DEFAULT}/services/kubernetes`)).json.spec.clusterIP).toBe('10.96.0.1')
  })

  it('kube-node-lease, the one system namespace that can be deleted, is re-created', async () => {
    const before = await req('GET', '/api/v1/namespaces/kube-node-lease')
    const d = await req('DELETE', '/api/v1/namespaces/kube-node-lease')
    expect(d.status, d.text).toBe(200)
    const again = await waitFor(
      'kube-node-lease to come back',
      async () => {
        const g = await req('GET', '/api/v1/namespaces/kube-node-lease')
        return g.status === 200 && g.json.metadata.uid !== before.json.metadata.uid && g.json.status.phase === 'Active'
          ? g.json
          : undefined
      },
      15_000,
    )
    expect(again.metadata.name).toBe('kube-node-lease')
  })
})
