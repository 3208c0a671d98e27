// Discovery of the configuration and storage kinds as a 1.33 server serves it: legacy /api/v1 and /apis/<group>/v1
// (short names, storage version hashes, /status subresources), the coordination and networking groups in /apis, and
// aggregated discovery (apidiscovery.k8s.io/v2) listing them.
import { describe, expect, it } from 'vitest'
import { req } from '../helpers'

const byName = (list: any) => Object.fromEntries(list.json.resources.map((r: any) => [r.name, r]))
const ALL_VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch']

describe('discovery of the configuration and storage kinds', () => {
  it('core/v1: configmaps, secrets, persistentvolumeclaims, persistentvolumes', async () => {
    const core = byName(await req('GET', '/api/v1'))
    expect(core.configmaps).toEqual({
      name: 'configmaps',
      singularName: 'configmap',
      namespaced: true,
      kind: 'ConfigMap',
      verbs: ALL_VERBS,
      shortNames: ['cm'],
      storageVersionHash: 'qFsyl6wFWjQ=',
    })
    expect(core.secrets).toMatchObject({ kind: 'Secret', namespaced: true, storageVersionHash: 'S6u1pOWzb84=' })
    expect(core.secrets.shortNames).toBeUndefined()
    expect(core.persistentvolumeclaims).toMatchObject({ shortNames: ['pvc'], storageVersionHash: 'QWTyNDq0dC4=' })
    expect(core.persistentvolumes).toMatchObject({
      namespaced: false,
      shortNames: ['pv'],
      storageVersionHash: 'HN/zwEC+JgM=',
    })
    for (const s of ['persistentvolumeclaims/status', 'persistentvolumes/status'])
      expect(core[s]).toMatchObject({ verbs: ['get', 'patch', 'update'] })
  })

  it('coordination.k8s.io/v1 leases and networking.k8s.io/v1 ingresses, ingressclasses', async () => {
    const groups = (await req('GET', '/apis')).json.groups.map((g: any) => g.name)
    expect(groups).toEqual(expect.arrayContaining(['coordination.k8s.io', 'networking.k8s.io']))
    const coordination = byName(await req('GET', '/apis/coordination.k8s.io/v1'))
    expect(coordination.leases).toMatchObject({
      kind: 'Lease',
      namespaced: true,
      verbs: ALL_VERBS,
      storageVersionHash: 'gqkMMb/YqFM=',
    })
    const networking = byName(await req('GET', '/apis/networking.k8s.io/v1'))
    expect(networking.ingresses).toMatchObject({
      kind: 'Ingress',
      shortNames: ['ing'],
      storageVersionHash: '39NQlfNR+bo=',
    })
    expect(networking['ingresses/status']).toMatchObject({ kind: 'Ingress' })
    expect(networking.ingressclasses).toMatchObject({ namespaced: false, storageVersionHash: 'l/iqIbDgFyQ=' })
  })

  it('aggregated discovery lists them too', async () => {
    const r = await req('GET', '/apis', undefined, {
      accept: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList',
    })
    const names = r.json.items.map((g: any) => g.metadata.name)
    expect(names).toEqual(expect.arrayContaining(['coordination.k8s.io', 'networking.k8s.io']))
    const networking = r.json.items.find((g: any) => g.metadata.name === 'networking.k8s.io')
    const resources = networking.versions[0].resources.map((x: any) => x.resource)
    expect(resources).toEqual(expect.arrayContaining(['ingresses', 'ingressclasses']))
  })
})
