// Discovery and OpenAPI of NetworkPolicy, PriorityClass and StorageClass as a 1.33 server serves them: the
// resource lists (scope, short names, verbs, storage version hashes), the groups in /apis (storage.k8s.io before
// scheduling.k8s.io), aggregated discovery, and the OpenAPI v3 components under kube's names (kubectl explain).
import { describe, expect, it } from 'vitest'
import { req } from '../helpers'

const ALL_VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch']
const resource = async (groupVersion: string, name: string) =>
  (await req('GET', `/apis/${groupVersion}`)).json.resources.find((r: any) => r.name === name)

describe('discovery of networkpolicies, priorityclasses, storageclasses', () => {
  it('lists each with its scope, short name, verbs and storage version hash', async () => {
    expect(await resource('networking.k8s.io/v1', 'networkpolicies')).toEqual({
      name: 'networkpolicies',
      singularName: 'networkpolicy',
      namespaced: true,
      kind: 'NetworkPolicy',
      verbs: ALL_VERBS,
      shortNames: ['netpol'],
      storageVersionHash: 'YpfwF18m1G8=',
    })
    expect(await resource('scheduling.k8s.io/v1', 'priorityclasses')).toEqual({
      name: 'priorityclasses',
      singularName: 'priorityclass',
      namespaced: false,
      kind: 'PriorityClass',
      verbs: ALL_VERBS,
      shortNames: ['pc'],
      storageVersionHash: '1QwjyaZjj3Y=',
    })
    expect(await resource('storage.k8s.io/v1', 'storageclasses')).toEqual({
      name: 'storageclasses',
      singularName: 'storageclass',
      namespaced: false,
      kind: 'StorageClass',
      verbs: ALL_VERBS,
      shortNames: ['sc'],
      storageVersionHash: 'K+m6uJwbjGY=',
    })
  })

  it('serves the groups, storage.k8s.io before scheduling.k8s.io as kube orders them, in aggregated discovery too', async () => {
    const groups: string[] = (await req('GET', '/apis')).json.groups.map((g: any) => g.name)
    expect(groups).toEqual(expect.arrayContaining(['networking.k8s.io', 'storage.k8s.io', 'scheduling.k8s.io']))
    expect(groups.indexOf('storage.k8s.io')).toBeLessThan(groups.indexOf('scheduling.k8s.io'))
    const aggregated = await req('GET', '/apis', undefined, {
      accept: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList',
    })
    const resources = (group: string) =>
      aggregated.json.items
        .find((g: any) => g.metadata.name === group)
        .versions[0].resources.map((r: any) => [r.resource, r.scope, r.shortNames])
    expect(resources('networking.k8s.io')).toContainEqual(['networkpolicies', 'Namespaced', ['netpol']])
    expect(resources('scheduling.k8s.io')).toEqual([['priorityclasses', 'Cluster', ['pc']]])
    expect(resources('storage.k8s.io')).toEqual([['storageclasses', 'Cluster', ['sc']]])
  })

  it('publishes their OpenAPI v3 components under kube names', async () => {
    const components = async (doc: string) => Object.keys((await req('GET', doc)).json.components.schemas)
    expect(await components('/openapi/v3/apis/networking.k8s.io/v1')).toEqual(
      expect.arrayContaining([
        'io.k8s.api.networking.v1.NetworkPolicy',
        'io.k8s.api.networking.v1.NetworkPolicySpec',
        'io.k8s.api.networking.v1.NetworkPolicyPeer',
        'io.k8s.api.networking.v1.IPBlock',
      ]),
    )
    expect(await components('/openapi/v3/apis/scheduling.k8s.io/v1')).toContain(
      'io.k8s.api.scheduling.v1.PriorityClass',
    )
    expect(await components('/openapi/v3/apis/storage.k8s.io/v1')).toEqual(
      expect.arrayContaining(['io.k8s.api.storage.v1.StorageClass', 'io.k8s.api.core.v1.TopologySelectorTerm']),
    )
  })
})
