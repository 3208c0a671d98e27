// Preconditions of writes (src/registry/preconditions.ts). The uid a PUT's body names is the update's, /status
// included, refused as kube's storage refuses it (a Conflict wrapping a StorageError that names the etcd key); a patch
// has none, so a foreign uid there is an immutable field (422), through /status too. A delete's are rest.BeforeDelete's.
import { describe, expect, it } from 'vitest'
import { makeNamespace, req } from '../helpers'
import { deletePreconditionFailure, uidPreconditionFailure } from '../../src/registry/preconditions'
import type { ResourceDef } from '../../src/registry/resource'
import { resourceByPlural } from '../../src/registry/resources'

const FOREIGN = '00000000-0000-0000-0000-000000000000'

describe('update preconditions', () => {
  it('PUT /status with a foreign metadata.uid: 409 precondition failed, nothing written', async () => {
    const ns = await makeNamespace('pre')
    const created = await req('POST', `/api/v1/namespaces/${ns}/persistentvolumeclaims`, {
      metadata: { name: 'c' },
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
    })
    expect(created.status).toBe(201)
    const uid = created.json.metadata.uid
    const r = await req('PUT', `/api/v1/namespaces/${ns}/persistentvolumeclaims/c/status`, {
      ...created.json,
      metadata: { ...created.json.metadata, uid: FOREIGN },
      status: { phase: 'Bound' },
    })
    expect(r.status, r.text).toBe(409)
    expect(r.json).toMatchObject({
      reason: 'Conflict',
      message: `Operation cannot be fulfilled on persistentvolumeclaims "c": StorageError: invalid object, Code: 4, Key: /registry/persistentvolumeclaims/${ns}/c, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: ${FOREIGN}, UID in object meta: ${uid}`,
      details: { name: 'c', kind: 'persistentvolumeclaims' },
    })
    const after = await req('GET', `/api/v1/namespaces/${ns}/persistentvolumeclaims/c`)
    expect(after.json.metadata.resourceVersion).toBe(created.json.metadata.resourceVersion)
  })

  it('PUT of the main resource: the precondition comes before the resourceVersion; the key is the etcd one', async () => {
    const ns = await makeNamespace('pre')
    const created = await req('POST', `/api/v1/namespaces/${ns}/services`, {
      metadata: { name: 's' },
      spec: { ports: [{ port: 80 }] },
    })
    expect(created.status, created.text).toBe(201)
    const r = await req('PUT', `/api/v1/namespaces/${ns}/services/s`, {
      ...created.json,
      metadata: { ...created.json.metadata, uid: FOREIGN, resourceVersion: '1' },
    })
    expect(r.status, r.text).toBe(409)
    expect(r.json.message).toContain(`Key: /registry/services/specs/${ns}/s, ResourceVersion: 0`)
    // Its own uid is no obstacle.
    const own = await req('PUT', `/api/v1/namespaces/${ns}/services/s`, created.json)
    expect(own.status, own.text).toBe(200)
  })

  it('a merge patch of /status carrying a foreign metadata.uid: 422, uid is immutable', async () => {
    const ns = await makeNamespace('pre')
    const path = `/apis/apps/v1/namespaces/${ns}/deployments/d`
    const created = await req('POST', `/apis/apps/v1/namespaces/${ns}/deployments`, {
      metadata: { name: 'd' },
      spec: {
        replicas: 0,
        selector: { matchLabels: { app: 'd' } },
        template: { metadata: { labels: { app: 'd' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
      },
    })
    expect(created.status, created.text).toBe(201)
    const r = await req('PATCH', `${path}/status`, JSON.stringify({ metadata: { uid: FOREIGN } }), {
      'content-type': 'application/merge-patch+json',
    })
    expect(r.status, r.text).toBe(422)
    expect(r.json.message).toBe(
      `Deployment.apps "d" is invalid: metadata.uid: Invalid value: "${FOREIGN}": field is immutable`,
    )
    expect((await req('GET', path)).json.metadata.uid).toBe(created.json.metadata.uid)
  })
})

describe('the etcd key a failed precondition names', () => {
  const keyOf = (def: ResourceDef, namespace = 'ns') =>
    uidPreconditionFailure(def, namespace, 'x', FOREIGN, { metadata: { name: 'x', uid: 'u' } })?.message?.match(
      /Key: (\S+),/,
    )?.[1]

  it('built-in kinds by resource name, or the historical prefix kube keeps', () => {
    expect(keyOf(resourceByPlural('configmaps')!)).toBe('/registry/configmaps/ns/x')
    expect(keyOf(resourceByPlural('deployments')!)).toBe('/registry/deployments/ns/x')
    expect(keyOf(resourceByPlural('replicationcontrollers')!)).toBe('/registry/controllers/ns/x')
    expect(keyOf(resourceByPlural('endpoints')!)).toBe('/registry/services/endpoints/ns/x')
    expect(keyOf(resourceByPlural('ingresses')!)).toBe('/registry/ingress/ns/x')
    expect(keyOf(resourceByPlural('nodes')!, '')).toBe('/registry/minions/x')
    expect(keyOf(resourceByPlural('customresourcedefinitions')!, '')).toBe(
      '/registry/apiextensions.k8s.io/customresourcedefinitions/x',
    )
  })

  it('custom resources by group and resource', () => {
    const widgets = { ...resourceByPlural('configmaps')!, group: 'example.com', plural: 'widgets', unstructured: {} }
    expect(keyOf(widgets as ResourceDef)).toBe('/registry/example.com/widgets/ns/x')
  })

  it('no uid, or the same uid: no refusal', () => {
    const def = resourceByPlural('configmaps')!
    const current = { metadata: { name: 'x', uid: 'u' } }
    expect(uidPreconditionFailure(def, 'ns', 'x', undefined, current)).toBeNull()
    expect(uidPreconditionFailure(def, 'ns', 'x', 'u', current)).toBeNull()
  })
})

describe('delete preconditions (rest.BeforeDelete)', () => {
  const record = { uid: 'u', resourceVersion: '7' }

  it('a uid that differs, the empty one included, names the kind and its group', () => {
    const failed = deletePreconditionFailure(resourceByPlural('deployments')!, 'd', { uid: '' }, record)
    expect(failed).toMatchObject({
      code: 409,
      reason: 'Conflict',
      message:
        'Operation cannot be fulfilled on Deployment.apps "d": the UID in the precondition () does not match the UID in record (u). The object might have been deleted and then recreated',
      details: { name: 'd', group: 'apps', kind: 'Deployment' },
    })
  })

  it('the uid first, then the resourceVersion; none set or both matching: no refusal', () => {
    const def = resourceByPlural('configmaps')!
    expect(deletePreconditionFailure(def, 'c', { resourceVersion: '6' }, record)?.message).toBe(
      'Operation cannot be fulfilled on ConfigMap "c": the ResourceVersion in the precondition (6) does not match the ResourceVersion in record (7). The object might have been modified',
    )
    expect(deletePreconditionFailure(def, 'c', { uid: 'x', resourceVersion: '6' }, record)?.message).toContain(
      'the UID in the precondition (x)',
    )
    expect(deletePreconditionFailure(def, 'c', undefined, record)).toBeNull()
    expect(deletePreconditionFailure(def, 'c', { uid: 'u', resourceVersion: '7' }, record)).toBeNull()
  })
})
