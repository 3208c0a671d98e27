// LimitRanger's defaults are admission's mutations, which kube's managedFields do not attribute to the writer: its
// handler records managedFields before mutating admission runs. A pod created with LimitRange defaults (POST,
// server-side apply, a controller's create) has the managedFields the same pod has without them, byte for byte.
import { describe, expect, it } from 'vitest'
import { makeNamespace, req, waitFor } from '../helpers'

const APPLY = { 'content-type': 'application/apply-patch+yaml' }

async function namespaces(): Promise<{ plain: string; limited: string }> {
  const plain = await makeNamespace('lrmf')
  const limited = await makeNamespace('lrmf')
  const lr = await req('POST', `/api/v1/namespaces/${limited}/limitranges`, {
    metadata: { name: 'defaults' },
    spec: { limits: [{ type: 'Container', default: { cpu: '200m' }, defaultRequest: { cpu: '100m' } }] },
  })
  expect(lr.status, lr.text).toBe(201)
  return { plain, limited }
}

/** managedFields without their times (the two pods are created at different instants). */
const untimed = (obj: any) => obj.metadata.managedFields.map(({ time: _, ...rest }: any) => rest)

const pod = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'p' },
  spec: { schedulerName: 'none', containers: [{ name: 'c', image: 'nginx' }] },
}

describe("LimitRanger's defaults and managedFields", () => {
  it('a POST: the writer owns what it sent and the scheme defaulted, not the LimitRange defaults', async () => {
    const { plain, limited } = await namespaces()
    const a = await req('POST', `/api/v1/namespaces/${plain}/pods?fieldManager=me`, pod)
    const b = await req('POST', `/api/v1/namespaces/${limited}/pods?fieldManager=me`, pod)
    expect(a.status, a.text).toBe(201)
    expect(b.status, b.text).toBe(201)
    expect(b.json.spec.containers[0].resources).toEqual({ limits: { cpu: '200m' }, requests: { cpu: '100m' } })
    expect(b.json.metadata.annotations).toEqual({
      'kubernetes.io/limit-ranger': 'LimitRanger plugin set: cpu request for container c; cpu limit for container c',
    })
    expect(untimed(b.json)).toEqual(untimed(a.json))
    expect(untimed(b.json)).toEqual([
      {
        manager: 'me',
        operation: 'Update',
        apiVersion: 'v1',
        fieldsType: 'FieldsV1',
        fieldsV1: {
          'f:spec': {
            'f:containers': {
              'k:{"name":"c"}': {
                '.': {},
                'f:image': {},
                'f:imagePullPolicy': {},
                'f:name': {},
                'f:resources': {},
                'f:terminationMessagePath': {},
                'f:terminationMessagePolicy': {},
              },
            },
            'f:dnsPolicy': {},
            'f:enableServiceLinks': {},
            'f:restartPolicy': {},
            'f:schedulerName': {},
            'f:securityContext': {},
            'f:terminationGracePeriodSeconds': {},
          },
        },
      },
    ])
  })

  it('a server-side apply that creates: the applier owns its configuration only', async () => {
    const { plain, limited } = await namespaces()
    const path = (ns: string) => `/api/v1/namespaces/${ns}/pods/p?fieldManager=me`
    const a = await req('PATCH', path(plain), JSON.stringify(pod), APPLY)
    const b = await req('PATCH', path(limited), JSON.stringify(pod), APPLY)
    expect(a.status, a.text).toBe(201)
    expect(b.status, b.text).toBe(201)
    expect(b.json.spec.containers[0].resources).toEqual({ limits: { cpu: '200m' }, requests: { cpu: '100m' } })
    expect(untimed(b.json)).toEqual(untimed(a.json))
    expect(untimed(b.json)).toEqual([
      {
        manager: 'me',
        operation: 'Apply',
        apiVersion: 'v1',
        fieldsType: 'FieldsV1',
        fieldsV1: {
          'f:spec': {
            'f:containers': { 'k:{"name":"c"}': { '.': {}, 'f:image': {}, 'f:name': {} } },
            'f:schedulerName': {},
          },
        },
      },
    ])
    // Re-applying the same configuration is no change: the defaults stay, and nobody came to own them.
    const again = await req('PATCH', path(limited), JSON.stringify(pod), APPLY)
    expect(again.status, again.text).toBe(200)
    expect(again.json.metadata.resourceVersion).toBe(b.json.metadata.resourceVersion)
    expect(again.json.spec.containers[0].resources).toEqual({ limits: { cpu: '200m' }, requests: { cpu: '100m' } })
  })

  it("a controller's create: the ReplicaSet's pod as in a namespace without the LimitRange", async () => {
    const { plain, limited } = await namespaces()
    const rs = {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: { name: 'web' },
      spec: {
        replicas: 1,
        selector: { matchLabels: { app: 'web' } },
        template: {
          metadata: { labels: { app: 'web' } },
          spec: { schedulerName: 'none', containers: [{ name: 'c', image: 'nginx' }] },
        },
      },
    }
    const podOf = async (ns: string) => {
      expect((await req('POST', `/apis/apps/v1/namespaces/${ns}/replicasets`, rs)).status).toBe(201)
      return waitFor('the pod', async () => (await req('GET', `/api/v1/namespaces/${ns}/pods`)).json.items[0])
    }
    const a = await podOf(plain)
    const b = await podOf(limited)
    expect(b.spec.containers[0].resources).toEqual({ limits: { cpu: '200m' }, requests: { cpu: '100m' } })
    // The owner reference names each namespace's own ReplicaSet.
    const withoutUid = (fields: unknown) => JSON.stringify(fields).replaceAll(/k:\{\\"uid\\":\\"[^\\]+\\"\}/g, 'k:uid')
    expect(withoutUid(untimed(b))).toEqual(withoutUid(untimed(a)))
    expect(JSON.stringify(untimed(b))).not.toContain('f:limits')
  })
})
