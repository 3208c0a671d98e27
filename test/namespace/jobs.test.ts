// Jobs through the Worker, with the namespace object's scheduler and simulated kubelet running their pods: a Job whose
// container echoes completes (its log, kubectl's table), 5 completions with parallelism 2 never run more than 2 pods,
// a failing pod with backoffLimit 0 fails the Job, ttlSecondsAfterFinished 0 deletes it once done.
import { describe, expect, it } from 'vitest'
import { makeNamespace, openWatch, req, waitFor } from '../helpers'

const TABLE = { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' }
const jobsPath = (ns: string, name = '') => `/apis/batch/v1/namespaces/${ns}/jobs${name ? `/${name}` : ''}`
const job = (name: string, spec: Record<string, unknown>, command: string[]) => ({
  apiVersion: 'batch/v1',
  kind: 'Job',
  metadata: { name },
  spec: {
    ...spec,
    template: { spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'busybox', command }] } },
  },
})
const condition = (j: any, type: string) =>
  (j?.status?.conditions ?? []).find((c: any) => c.type === type && c.status === 'True')

async function finished(ns: string, name: string, type: 'Complete' | 'Failed') {
  return waitFor(`${name} ${type}`, async () => {
    const j = (await req('GET', jobsPath(ns, name))).json
    return condition(j, type) ? j : undefined
  })
}

describe('Jobs on the simulated cluster', () => {
  it("sh -c 'echo hi' completes: the pod's log, then kubectl's table", async () => {
    const ns = await makeNamespace('jobs')
    const r = await req('POST', jobsPath(ns), job('hello', {}, ['sh', '-c', 'echo hi']))
    expect(r.status, r.text).toBe(201)
    const done = await finished(ns, 'hello', 'Complete')
    expect(done.status).toMatchObject({ succeeded: 1, ready: 0, terminating: 0, uncountedTerminatedPods: {} })
    expect(done.status.completionTime).toBeDefined()
    const pods = (await req('GET', `/api/v1/namespaces/${ns}/pods?labelSelector=batch.kubernetes.io/job-name%3Dhello`))
      .json
    expect(pods.items).toHaveLength(1)
    expect(pods.items[0].metadata.finalizers).toBeUndefined()
    const log = await req('GET', `/api/v1/namespaces/${ns}/pods/${pods.items[0].metadata.name}/log`)
    expect(log.text).toBe('hi\n')
    const table = await req('GET', jobsPath(ns), undefined, TABLE)
    expect(table.json.columnDefinitions.map((c: any) => c.name)).toEqual([
      'Name',
      'Status',
      'Completions',
      'Duration',
      'Age',
      'Containers',
      'Images',
      'Selector',
    ])
    const cells = table.json.rows[0].cells
    expect(cells.slice(0, 3)).toEqual(['hello', 'Complete', '1/1'])
    expect(cells.slice(5, 7)).toEqual(['main', 'busybox'])
    expect(cells[7]).toBe(`batch.kubernetes.io/controller-uid=${done.metadata.uid}`)
  })

  it('5 completions with parallelism 2: five pods succeed, never more than two at once', async () => {
    const ns = await makeNamespace('jobs')
    const watch = await openWatch(`/api/v1/namespaces/${ns}/pods?watch=true`)
    const r = await req('POST', jobsPath(ns), job('five', { completions: 5, parallelism: 2 }, ['sh', '-c', 'echo one']))
    expect(r.status, r.text).toBe(201)
    const done = await finished(ns, 'five', 'Complete')
    expect(done.status.succeeded).toBe(5)
    const { events } = await watch.rest(1000)
    await watch.cancel()
    const running = new Set<string>()
    let most = 0
    for (const e of events) {
      const p = e.object
      const live =
        e.type !== 'DELETED' && !p.metadata.deletionTimestamp && !['Succeeded', 'Failed'].includes(p.status?.phase)
      if (live) running.add(p.metadata.name)
      else running.delete(p.metadata.name)
      most = Math.max(most, running.size)
    }
    expect(most).toBe(2)
    const pods = (await req('GET', `/api/v1/namespaces/${ns}/pods`)).json.items
    expect(pods.map((p: any) => p.status.phase)).toEqual(Array(5).fill('Succeeded'))
  })

  it('a failing pod with backoffLimit 0 fails the Job with BackoffLimitExceeded', async () => {
    const ns = await makeNamespace('jobs')
    expect((await req('POST', jobsPath(ns), job('doomed', { backoffLimit: 0 }, ['sh', '-c', 'exit 1']))).status).toBe(
      201,
    )
    const failed = await finished(ns, 'doomed', 'Failed')
    expect(failed.status.failed).toBe(1)
    expect(condition(failed, 'FailureTarget')).toMatchObject({ reason: 'BackoffLimitExceeded' })
    expect(condition(failed, 'Failed')).toMatchObject({
      reason: 'BackoffLimitExceeded',
      message: 'Job has reached the specified backoff limit',
    })
    const table = await req('GET', jobsPath(ns, 'doomed'), undefined, TABLE)
    expect(table.json.rows[0].cells.slice(0, 3)).toEqual(['doomed', 'Failed', '0/1'])
  })

  it('ttlSecondsAfterFinished 0: the Job and its pod are deleted once it completes', async () => {
    const ns = await makeNamespace('jobs')
    expect((await req('POST', jobsPath(ns), job('brief', { ttlSecondsAfterFinished: 0 }, ['true']))).status).toBe(201)
    await waitFor('the Job to be deleted', async () =>
      (await req('GET', jobsPath(ns, 'brief'))).status === 404 ? true : undefined,
    )
    await waitFor('its pod to be deleted', async () =>
      (await req('GET', `/api/v1/namespaces/${ns}/pods`)).json.items.length === 0 ? true : undefined,
    )
  })

  it("a delete naming no propagation orphans the pods, with kube's warning; Background takes them along", async () => {
    const ns = await makeNamespace('jobs')
    for (const name of ['kept', 'gone'])
      expect((await req('POST', jobsPath(ns), job(name, {}, ['sleep', '3600']))).status).toBe(201)
    const podsOf = async (name: string) =>
      (await req('GET', `/api/v1/namespaces/${ns}/pods?labelSelector=job-name%3D${name}`)).json.items as any[]
    for (const name of ['kept', 'gone'])
      await waitFor(`${name}'s pod`, async () => ((await podsOf(name)).length === 1 ? true : undefined))
    const orphaned = await req('DELETE', jobsPath(ns, 'kept'))
    expect(orphaned.status).toBe(200)
    expect(orphaned.headers.get('warning')).toBe(
      '299 - "child pods are preserved by default when jobs are deleted; set propagationPolicy=Background to remove them or set propagationPolicy=Orphan to suppress this warning"',
    )
    await waitFor('the orphan to be released', async () => {
      const [pod] = await podsOf('kept')
      return pod && !pod.metadata.ownerReferences && !pod.metadata.finalizers ? pod : undefined
    })
    const background = await req('DELETE', `${jobsPath(ns, 'gone')}?propagationPolicy=Background`)
    expect(background.headers.get('warning')).toBeNull()
    await waitFor('its pod to go', async () => ((await podsOf('gone')).length === 0 ? true : undefined))
  })
})
