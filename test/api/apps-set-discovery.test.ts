// Discovery and OpenAPI for the apps/v1 kinds the daemon set and stateful set controllers own: ControllerRevisions,
// DaemonSets (ds, /status) and StatefulSets (sts, /scale, /status), and policy/v1 PodDisruptionBudgets (pdb, /status),
// as a 1.33 cluster lists them (storage version hashes included); their schemas as named components.
import { describe, expect, it } from 'vitest'
import { req } from '../helpers'

const resourcesOf = async (gv: string) => (await req('GET', `/apis/${gv}`)).json.resources as any[]

describe('discovery and OpenAPI for DaemonSets, StatefulSets, ControllerRevisions and PodDisruptionBudgets', () => {
  it('apps/v1 and policy/v1 list them with kube’s short names, categories, subresources and hashes', async () => {
    const apps = await resourcesOf('apps/v1')
    const pick = (name: string, list = apps) => list.find((r) => r.name === name)
    expect(pick('daemonsets')).toEqual({
      name: 'daemonsets',
      singularName: 'daemonset',
      namespaced: true,
      kind: 'DaemonSet',
      verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
      shortNames: ['ds'],
      categories: ['all'],
      storageVersionHash: 'dd7pWHUlMKQ=',
    })
    expect(pick('statefulsets')).toMatchObject({
      shortNames: ['sts'],
      categories: ['all'],
      storageVersionHash: 'H+vl74LkKdo=',
    })
    expect(pick('controllerrevisions')).toMatchObject({
      kind: 'ControllerRevision',
      storageVersionHash: '85nkx63pcBU=',
    })
    expect(pick('controllerrevisions').shortNames).toBeUndefined()
    expect(pick('statefulsets/scale')).toEqual({
      name: 'statefulsets/scale',
      singularName: '',
      namespaced: true,
      group: 'autoscaling',
      version: 'v1',
      kind: 'Scale',
      verbs: ['get', 'patch', 'update'],
    })
    expect(pick('daemonsets/status')).toMatchObject({ kind: 'DaemonSet', verbs: ['get', 'patch', 'update'] })
    expect(pick('daemonsets/scale')).toBeUndefined()
    const policy = await resourcesOf('policy/v1')
    expect(pick('poddisruptionbudgets', policy)).toMatchObject({
      shortNames: ['pdb'],
      storageVersionHash: 'EVWiDmWqyJw=',
    })
    expect(pick('poddisruptionbudgets/status', policy)).toMatchObject({ kind: 'PodDisruptionBudget' })
  })

  it('the OpenAPI v3 documents name their types as kube does', async () => {
    const apps = (await req('GET', '/openapi/v3/apis/apps/v1')).json.components.schemas
    for (const name of [
      'DaemonSet',
      'DaemonSetSpec',
      'RollingUpdateDaemonSet',
      'StatefulSet',
      'StatefulSetOrdinals',
      'ControllerRevision',
    ])
      expect(apps[`io.k8s.api.apps.v1.${name}`], name).toBeDefined()
    expect(
      apps['io.k8s.api.apps.v1.StatefulSetSpec'].properties.volumeClaimTemplates.items.$ref ??
        apps['io.k8s.api.apps.v1.StatefulSetSpec'].properties.volumeClaimTemplates.items.allOf?.[0]?.$ref,
    ).toBe('#/components/schemas/io.k8s.api.core.v1.PersistentVolumeClaim')
    const policy = (await req('GET', '/openapi/v3/apis/policy/v1')).json.components.schemas
    expect(policy['io.k8s.api.policy.v1.PodDisruptionBudget']['x-kubernetes-group-version-kind']).toEqual([
      { group: 'policy', kind: 'PodDisruptionBudget', version: 'v1' },
    ])
  })
})
