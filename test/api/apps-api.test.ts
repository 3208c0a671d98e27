// apps/v1 through the API's generic machinery: discovery (group, resources, subresources, hashes), OpenAPI v3
// components, Go decoding errors and strict field validation, server-side apply with the apps/v1 managedFields, and a
// watch of Deployments.
import { describe, expect, it } from 'vitest'
import { makeNamespace, openWatch, req } from '../helpers'
import { deployment, dPath, rolledOut } from '../namespace/deployment-fixtures'

const APPLY = { 'content-type': 'application/apply-patch+yaml' }

describe('apps/v1 discovery', () => {
  it('lists the group with Deployments and ReplicaSets, their /scale and /status as a 1.33 server does', async () => {
    const groups = await req('GET', '/apis')
    const apps = groups.json.groups.find((g: any) => g.name === 'apps')
    expect(apps).toEqual({
      name: 'apps',
      versions: [{ groupVersion: 'apps/v1', version: 'v1' }],
      preferredVersion: { groupVersion: 'apps/v1', version: 'v1' },
    })
    const list = await req('GET', '/apis/apps/v1')
    const byName = Object.fromEntries(list.json.resources.map((r: any) => [r.name, r]))
    expect(byName.deployments).toMatchObject({
      kind: 'Deployment',
      namespaced: true,
      shortNames: ['deploy'],
      categories: ['all'],
      storageVersionHash: '8aSe+NMegvE=',
    })
    expect(byName.replicasets).toMatchObject({
      kind: 'ReplicaSet',
      shortNames: ['rs'],
      storageVersionHash: 'P1RzHs8/mWQ=',
    })
    expect(byName['deployments/scale']).toMatchObject({ group: 'autoscaling', version: 'v1', kind: 'Scale' })
    expect(byName['replicasets/status']).toMatchObject({ kind: 'ReplicaSet', verbs: ['get', 'patch', 'update'] })
  })

  it('serves the OpenAPI v3 document with apps/v1 components', async () => {
    const doc = await req('GET', '/openapi/v3/apis/apps/v1')
    expect(doc.status).toBe(200)
    const schemas = doc.json.components.schemas
    expect(schemas['io.k8s.api.apps.v1.DeploymentSpec'].required).toEqual(['selector', 'template'])
    expect(schemas['io.k8s.api.apps.v1.ReplicaSetSpec'].required).toEqual(['selector'])
    expect(schemas['io.k8s.api.apps.v1.DeploymentSpec'].properties.strategy).toMatchObject({
      'x-kubernetes-patch-strategy': 'retainKeys',
    })
    expect(schemas['io.k8s.api.apps.v1.Deployment']['x-kubernetes-group-version-kind']).toEqual([
      { group: 'apps', kind: 'Deployment', version: 'v1' },
    ])
  })
})

describe('apps/v1 decoding', () => {
  it("a wrong type is kube's 400 naming the Go field", async () => {
    const ns = await makeNamespace('appsdec')
    const body = deployment('web', 1) as any
    body.spec.replicas = 'three'
    const r = await req('POST', dPath(ns), body)
    expect(r.status).toBe(400)
    expect(r.json.message).toBe(
      'Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32',
    )
  })

  it("an unknown field under fieldValidation=Strict is a 400; a missing template is the strategy's 422", async () => {
    const ns = await makeNamespace('appsdec')
    const body = deployment('web', 1) as any
    body.spec.strategy = { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, surge: 2 } }
    const strict = await req('POST', `${dPath(ns)}?fieldValidation=Strict`, body)
    expect(strict.status).toBe(400)
    expect(strict.json.message).toBe(
      'Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec.strategy.rollingUpdate.surge"',
    )
    const noTemplate = deployment('web', 1) as any
    delete noTemplate.spec.template
    const r = await req('POST', dPath(ns), noTemplate)
    expect(r.status).toBe(422)
    expect(r.json.message).toContain('spec.template.metadata.labels: Invalid value: map[string]string(nil)')
    expect(r.json.message).toContain('spec.template.spec.containers: Required value')
  })
})

describe('apps/v1 server-side apply and watch', () => {
  it('applies a Deployment, re-applies a new image (a rollout), and records Apply under apps/v1', async () => {
    const ns = await makeNamespace('appsssa')
    const yaml = (image: string) =>
      `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 2
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: c
        image: ${image}
`
    const w = await openWatch(`${dPath(ns)}?watch=true`)
    const first = await req('PATCH', `${dPath(ns, 'web')}?fieldManager=tester`, yaml('nginx:1'), APPLY)
    expect(first.status, first.text).toBe(201)
    await rolledOut(ns, 'web')
    const second = await req('PATCH', `${dPath(ns, 'web')}?fieldManager=tester`, yaml('nginx:2'), APPLY)
    expect(second.status, second.text).toBe(200)
    const d = await rolledOut(ns, 'web')
    expect(d.metadata.annotations['deployment.kubernetes.io/revision']).toBe('2')
    const apply = d.metadata.managedFields.find((m: any) => m.manager === 'tester')
    expect(apply).toMatchObject({ operation: 'Apply', apiVersion: 'apps/v1' })
    const status = d.metadata.managedFields.find((m: any) => m.subresource === 'status')
    expect(status).toMatchObject({ manager: 'kube-controller-manager', operation: 'Update', apiVersion: 'apps/v1' })
    const { events } = await w.rest(300)
    await w.cancel()
    expect(events[0]).toMatchObject({ type: 'ADDED', object: { kind: 'Deployment', apiVersion: 'apps/v1' } })
    expect(events.slice(1).every((e: any) => e.type === 'MODIFIED')).toBe(true)
    // The watch saw the rollout: generation 2 observed, then complete.
    expect(events.some((e: any) => e.object.status?.observedGeneration === 2)).toBe(true)
  })
})
