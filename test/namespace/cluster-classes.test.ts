// The cluster's classes seen from a namespace: the system PriorityClasses exist from the start and cannot be deleted,
// a pod created right after its class gets the class's priority (the namespace's copy of the cluster's classes is
// dropped when one changes, before that change is answered), an unknown class and a second global default are refused with kube's words, and a claim
// created right after a default StorageClass gets it.
import { describe, expect, it } from 'vitest'
import { makeNamespace, pod, req } from '../helpers'

const PC = '/apis/scheduling.k8s.io/v1/priorityclasses'
const pc = (name: string, value: number, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'scheduling.k8s.io/v1',
  kind: 'PriorityClass',
  metadata: { name },
  value,
  ...extra,
})

describe('PriorityClasses and pod admission through the API', () => {
  it('serves the system classes from the start, and refuses to delete them', async () => {
    const node = await req('GET', `${PC}/system-node-critical`)
    expect(node.status).toBe(200)
    expect(node.json).toMatchObject({ value: 2000001000, preemptionPolicy: 'PreemptLowerPriority' })
    expect((await req('GET', `${PC}/system-cluster-critical`)).json.value).toBe(2000000000)
    const gone = await req('DELETE', `${PC}/system-cluster-critical`)
    expect(gone.status).toBe(403)
    expect(gone.json.message).toBe(
      'priorityclasses.scheduling.k8s.io "system-cluster-critical" is forbidden: this is a system priority class and cannot be deleted',
    )
  })

  it('resolves a class created a moment before the pod, and refuses one that does not exist', async () => {
    const ns = await makeNamespace('prio')
    expect((await req('POST', PC, pc('gold-tier', 5000, { preemptionPolicy: 'Never' }))).status).toBe(201)
    const made = await req('POST', `/api/v1/namespaces/${ns}/pods`, {
      ...pod('vip'),
      spec: { ...pod('vip').spec, priorityClassName: 'gold-tier' },
    })
    expect(made.status, made.text).toBe(201)
    expect([made.json.spec.priority, made.json.spec.preemptionPolicy]).toEqual([5000, 'Never'])
    const refused = await req('POST', `/api/v1/namespaces/${ns}/pods`, {
      ...pod('nobody'),
      spec: { ...pod('nobody').spec, priorityClassName: 'no-such-tier' },
    })
    expect(refused.status).toBe(403)
    expect(refused.json).toMatchObject({
      reason: 'Forbidden',
      message: 'pods "nobody" is forbidden: no PriorityClass with name no-such-tier was found',
    })
    expect((await req('DELETE', `${PC}/gold-tier`)).status).toBe(200)
  })

  it('a namespace that already holds the classes sees a class created after them', async () => {
    const ns = await makeNamespace('prio')
    // The first pod makes the namespace fetch the classes; the cluster object then tells it of the new class.
    expect((await req('POST', `/api/v1/namespaces/${ns}/pods`, pod('first'))).status).toBe(201)
    expect((await req('POST', PC, pc('silver-tier', 3000))).status).toBe(201)
    const made = await req('POST', `/api/v1/namespaces/${ns}/pods`, {
      ...pod('second'),
      spec: { ...pod('second').spec, priorityClassName: 'silver-tier' },
    })
    expect(made.status, made.text).toBe(201)
    expect(made.json.spec.priority).toBe(3000)
    expect((await req('DELETE', `${PC}/silver-tier`)).status).toBe(200)
    const after = await req('POST', `/api/v1/namespaces/${ns}/pods`, {
      ...pod('third'),
      spec: { ...pod('third').spec, priorityClassName: 'silver-tier' },
    })
    expect(after.status).toBe(403)
  })

  it('gives pods naming no class the global default, and allows only one default', async () => {
    const ns = await makeNamespace('prio')
    expect((await req('POST', PC, pc('everyone-default', 100, { globalDefault: true }))).status).toBe(201)
    try {
      const second = await req('POST', PC, pc('another-default', 200, { globalDefault: true }))
      expect(second.status).toBe(403)
      expect(second.json.message).toBe(
        'priorityclasses.scheduling.k8s.io "another-default" is forbidden: PriorityClass everyone-default is already marked as default. Only one default can exist',
      )
      const made = await req('POST', `/api/v1/namespaces/${ns}/pods`, pod('plain'))
      expect(made.status, made.text).toBe(201)
      expect([made.json.spec.priorityClassName, made.json.spec.priority]).toEqual(['everyone-default', 100])
    } finally {
      await req('DELETE', `${PC}/everyone-default`)
    }
    const after = await req('POST', `/api/v1/namespaces/${ns}/pods`, pod('after'))
    expect([after.json.spec.priorityClassName, after.json.spec.priority]).toEqual([undefined, 0])
  })
})

describe('StorageClasses and claim admission through the API', () => {
  it('gives a claim created naming no class the default class, made a moment before', async () => {
    const ns = await makeNamespace('sc')
    const SC = '/apis/storage.k8s.io/v1/storageclasses'
    const made = await req('POST', SC, {
      apiVersion: 'storage.k8s.io/v1',
      kind: 'StorageClass',
      metadata: { name: 'local-default', annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } },
      provisioner: 'example.com/local',
    })
    expect(made.status, made.text).toBe(201)
    try {
      const claim = (name: string, spec: Record<string, unknown> = {}) => ({
        apiVersion: 'v1',
        kind: 'PersistentVolumeClaim',
        metadata: { name },
        spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, ...spec },
      })
      const pvcs = `/api/v1/namespaces/${ns}/persistentvolumeclaims`
      const plain = await req('POST', pvcs, claim('plain'))
      expect(plain.status, plain.text).toBe(201)
      expect(plain.json.spec.storageClassName).toBe('local-default')
      expect(plain.json.status).toEqual({ phase: 'Pending' })
      const none = await req('POST', pvcs, claim('none', { storageClassName: '' }))
      expect(none.json.spec.storageClassName).toBe('')
      const table = await req('GET', SC, undefined, { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' })
      const row = table.json.rows.find((r: any) => r.object.metadata.name === 'local-default')
      expect(row.cells.slice(0, 5)).toEqual([
        'local-default (default)',
        'example.com/local',
        'Delete',
        'Immediate',
        false,
      ])
    } finally {
      await req('DELETE', `${SC}/local-default`)
    }
  })
})
