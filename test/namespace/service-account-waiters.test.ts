// Workloads applied before their ServiceAccount: the pods' creates are refused (FailedCreate with kube's message, the
// ReplicaSet's ReplicaFailure condition) and made once the ServiceAccount is created, as kube's controllers retry.
import { describe, expect, it } from 'vitest'
import { makeNamespace, req, sleep, waitFor } from '../helpers'

const template = (app: string) => ({
  metadata: { labels: { app } },
  spec: {
    serviceAccountName: 'robot',
    schedulerName: 'kubeflare-test-none',
    containers: [{ name: 'c', image: 'nginx' }],
  },
})

const podsOf = async (ns: string, app: string) =>
  (await req('GET', `/api/v1/namespaces/${ns}/pods?labelSelector=app%3D${app}`)).json.items as unknown[]

const createServiceAccount = async (ns: string) => {
  const r = await req('POST', `/api/v1/namespaces/${ns}/serviceaccounts`, { metadata: { name: 'robot' } })
  expect(r.status, r.text).toBe(201)
}

describe('a ServiceAccount created after its workloads', () => {
  it('a ReplicaSet says why it has no pods, then makes them', async () => {
    const ns = await makeNamespace('sawait')
    const rs = await req('POST', `/apis/apps/v1/namespaces/${ns}/replicasets`, {
      metadata: { name: 'web' },
      spec: { replicas: 2, selector: { matchLabels: { app: 'web' } }, template: template('web') },
    })
    expect(rs.status, rs.text).toBe(201)
    // Named by the prefix, as kube's controller (which creates with generateName) has it refused.
    const message = `pods "web-" is forbidden: error looking up service account ${ns}/robot: serviceaccount "robot" not found`
    const condition = await waitFor('ReplicaFailure', async () => {
      const got = await req('GET', `/apis/apps/v1/namespaces/${ns}/replicasets/web`)
      return got.json.status?.conditions?.find((c: { type: string }) => c.type === 'ReplicaFailure')
    })
    expect(condition).toMatchObject({ status: 'True', reason: 'FailedCreate', message })
    const events = await req('GET', `/api/v1/namespaces/${ns}/events`)
    expect(events.json.items.map((e: { message: string }) => e.message)).toContain(`Error creating: ${message}`)
    // The refusal does not change, so the ReplicaSet's status settles: no write after write.
    const settled = (await req('GET', `/apis/apps/v1/namespaces/${ns}/replicasets/web`)).json.metadata.resourceVersion
    await sleep(500)
    const later = (await req('GET', `/apis/apps/v1/namespaces/${ns}/replicasets/web`)).json.metadata.resourceVersion
    expect(later).toBe(settled)
    expect(await podsOf(ns, 'web')).toHaveLength(0)
    await createServiceAccount(ns)
    await waitFor('two pods', async () => (await podsOf(ns, 'web')).length === 2)
  })

  it('a Job and a StatefulSet make their pods once it exists', async () => {
    const ns = await makeNamespace('sawait')
    const job = await req('POST', `/apis/batch/v1/namespaces/${ns}/jobs`, {
      metadata: { name: 'once' },
      spec: { template: { ...template('once'), spec: { ...template('once').spec, restartPolicy: 'Never' } } },
    })
    expect(job.status, job.text).toBe(201)
    const set = await req('POST', `/apis/apps/v1/namespaces/${ns}/statefulsets`, {
      metadata: { name: 'db' },
      spec: { replicas: 1, serviceName: 'db', selector: { matchLabels: { app: 'db' } }, template: template('db') },
    })
    expect(set.status, set.text).toBe(201)
    await waitFor('FailedCreate events', async () => {
      const events = await req('GET', `/api/v1/namespaces/${ns}/events`)
      const reasons = events.json.items.map((e: { reason: string; involvedObject: { kind: string } }) =>
        [e.involvedObject.kind, e.reason].join('/'),
      )
      return reasons.includes('Job/FailedCreate') && reasons.includes('StatefulSet/FailedCreate')
    })
    expect(await podsOf(ns, 'once')).toHaveLength(0)
    expect(await podsOf(ns, 'db')).toHaveLength(0)
    await createServiceAccount(ns)
    await waitFor('the Job’s pod', async () => (await podsOf(ns, 'once')).length === 1)
    await waitFor('the StatefulSet’s pod', async () => (await podsOf(ns, 'db')).length === 1)
  })
})
