// kube's resource quota controller in the namespace object: status.hard mirrors spec.hard, and status.used is
// recounted after every commit that touches what a quota charges (objects made before the quota, deletes, pods
// turning terminal, spec changes), so it stays exact without a resync.
import { describe, expect, it } from 'vitest'
import { makeNamespace, pod, req, waitFor } from '../helpers'

const quota = (hard: Record<string, string>) => ({
  apiVersion: 'v1',
  kind: 'ResourceQuota',
  metadata: { name: 'q' },
  spec: { hard },
})
const statusOf = async (ns: string) => (await req('GET', `/api/v1/namespaces/${ns}/resourcequotas/q`)).json.status
const until = (ns: string, want: unknown) =>
  waitFor(`quota status ${JSON.stringify(want)}`, async () => {
    const s = await statusOf(ns)
    return JSON.stringify(s) === JSON.stringify(want) ? s : undefined
  })
const cpuPod = (name: string, cpu: string) => ({
  ...pod(name),
  spec: { containers: [{ name: 'c', image: 'nginx', resources: { requests: { cpu, memory: '64Mi' } } }] },
})

describe('the resource quota controller', () => {
  it('counts what existed before the quota, and mirrors spec.hard into status.hard', async () => {
    const ns = await makeNamespace('quota-ctl')
    for (const name of ['a', 'b'])
      expect((await req('POST', `/api/v1/namespaces/${ns}/pods`, cpuPod(name, '250m'))).status).toBe(201)
    const hard = { pods: '10', 'requests.cpu': '2', 'requests.memory': '1Gi', secrets: '5' }
    expect((await req('POST', `/api/v1/namespaces/${ns}/resourcequotas`, quota(hard))).status).toBe(201)
    await until(ns, {
      hard: { pods: '10', 'requests.cpu': '2', 'requests.memory': '1Gi', secrets: '5' },
      used: { pods: '2', 'requests.cpu': '500m', 'requests.memory': '128Mi', secrets: '0' },
    })
    const patched = await req(
      'PATCH',
      `/api/v1/namespaces/${ns}/resourcequotas/q`,
      { spec: { hard: { pods: '3', secrets: null } } },
      { 'content-type': 'application/merge-patch+json' },
    )
    expect(patched.status, patched.text).toBe(200)
    await until(ns, {
      hard: { pods: '3', 'requests.cpu': '2', 'requests.memory': '1Gi' },
      used: { pods: '2', 'requests.cpu': '500m', 'requests.memory': '128Mi' },
    })
  })

  it('frees usage when a pod turns terminal and when it is deleted', async () => {
    const ns = await makeNamespace('quota-ctl')
    expect(
      (await req('POST', `/api/v1/namespaces/${ns}/resourcequotas`, quota({ pods: '5', 'count/pods': '5' }))).status,
    ).toBe(201)
    for (const name of ['a', 'b', 'c'])
      expect((await req('POST', `/api/v1/namespaces/${ns}/pods`, pod(name))).status).toBe(201)
    await until(ns, { hard: { 'count/pods': '5', pods: '5' }, used: { 'count/pods': '3', pods: '3' } })
    const done = await req(
      'PATCH',
      `/api/v1/namespaces/${ns}/pods/a/status`,
      { status: { phase: 'Failed' } },
      { 'content-type': 'application/merge-patch+json' },
    )
    expect(done.status, done.text).toBe(200)
    // A terminal pod still exists (count/pods) but no longer counts as a pod.
    await until(ns, { hard: { 'count/pods': '5', pods: '5' }, used: { 'count/pods': '3', pods: '2' } })
    await req('DELETE', `/api/v1/namespaces/${ns}/pods/b?gracePeriodSeconds=0`)
    await until(ns, { hard: { 'count/pods': '5', pods: '5' }, used: { 'count/pods': '2', pods: '1' } })
  })

  it('puts back a status.used a client wrote, and charges the next create from the usage it keeps', async () => {
    const ns = await makeNamespace('quota-ctl')
    expect((await req('POST', `/api/v1/namespaces/${ns}/resourcequotas`, quota({ pods: '3' }))).status).toBe(201)
    for (const name of ['a', 'b'])
      expect((await req('POST', `/api/v1/namespaces/${ns}/pods`, pod(name))).status).toBe(201)
    await until(ns, { hard: { pods: '3' }, used: { pods: '2' } })
    const bogus = await req(
      'PATCH',
      `/api/v1/namespaces/${ns}/resourcequotas/q/status`,
      { status: { used: { pods: '0' } } },
      { 'content-type': 'application/merge-patch+json' },
    )
    expect(bogus.status, bogus.text).toBe(200)
    await until(ns, { hard: { pods: '3' }, used: { pods: '2' } })
    expect((await req('POST', `/api/v1/namespaces/${ns}/pods`, pod('c'))).status).toBe(201)
    const over = await req('POST', `/api/v1/namespaces/${ns}/pods`, pod('d'))
    expect(over.json.message).toBe(
      'pods "d" is forbidden: exceeded quota: q, requested: pods=1, used: pods=3, limited: pods=3',
    )
    await until(ns, { hard: { pods: '3' }, used: { pods: '3' } })
  })
})
