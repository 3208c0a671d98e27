// kube's stale pod disruption worker in the namespace object: a pod marked DisruptionTarget=True more than two minutes
// ago and still not deleted gets the condition back to False (type, status and a new transition time only), written
// through pods/status by kube-controller-manager, whether or not the namespace has budgets; fresh marks, the kubelet's
// own marks and pods being deleted keep theirs.
import { describe, expect, it } from 'vitest'
import { makeNamespace, pod, req, waitFor } from '../helpers'

const podPath = (ns: string, name = '') => `/api/v1/namespaces/${ns}/pods${name ? `/${name}` : ''}`
const cond = (p: any) => (p.status?.conditions ?? []).find((c: any) => c.type === 'DisruptionTarget')
const ago = (ms: number) => new Date(Date.now() - ms).toISOString().replace(/\.\d+Z$/, 'Z')

async function mark(ns: string, name: string, reason: string, at: string) {
  const r = await req(
    'PATCH',
    `${podPath(ns, name)}/status`,
    {
      status: {
        conditions: [
          {
            type: 'DisruptionTarget',
            status: 'True',
            reason,
            message: 'Eviction API: evicting',
            lastTransitionTime: at,
          },
        ],
      },
    },
    { 'content-type': 'application/strategic-merge-patch+json' },
  )
  expect(r.status, r.text).toBe(200)
  return r.json
}

async function running(ns: string, name: string) {
  return waitFor(`${name} running`, async () => {
    const p = (await req('GET', podPath(ns, name))).json
    return p?.status?.phase === 'Running' ? p : undefined
  })
}

describe('stale DisruptionTarget conditions', () => {
  it('a mark older than two minutes on a pod nobody deletes is set back to False, as UpdatePodCondition writes it', async () => {
    const ns = await makeNamespace('stale')
    expect((await req('POST', podPath(ns), pod('web', { app: 'web' }))).status).toBe(201)
    await running(ns, 'web')
    await mark(ns, 'web', 'EvictionByEvictionAPI', ago(3 * 60_000))
    const cleared = await waitFor('the mark cleared', async () => {
      const p = (await req('GET', podPath(ns, 'web'))).json
      return cond(p)?.status === 'False' ? p : undefined
    })
    const c = cond(cleared)
    expect(Object.keys(c).sort()).toEqual(['lastProbeTime', 'lastTransitionTime', 'status', 'type'])
    expect(c.lastProbeTime).toBeNull()
    expect(Date.now() - Date.parse(c.lastTransitionTime)).toBeLessThan(60_000)
    // Written through pods/status by the controller manager, like kube's UpdateStatus.
    const entry = cleared.metadata.managedFields.find(
      (m: any) => m.manager === 'kube-controller-manager' && m.subresource === 'status',
    )
    expect(entry?.operation).toBe('Update')
    // The other conditions are the kubelet's, untouched.
    expect(cleared.status.phase).toBe('Running')
    expect(cleared.status.conditions.find((x: any) => x.type === 'Ready')?.status).toBe('True')
  })

  it('fresh marks, the kubelet’s own, and finished pods keep theirs', async () => {
    const ns = await makeNamespace('stale')
    for (const n of ['fresh', 'kubelet']) expect((await req('POST', podPath(ns), pod(n))).status).toBe(201)
    const done = pod('done', {}, { restartPolicy: 'Never' })
    ;(done.spec as any).containers[0].command = ['sh', '-c', 'exit 0']
    expect((await req('POST', podPath(ns), done)).status).toBe(201)
    await running(ns, 'fresh')
    await running(ns, 'kubelet')
    await waitFor('done finished', async () =>
      (await req('GET', podPath(ns, 'done'))).json.status?.phase === 'Succeeded' ? true : undefined,
    )
    await mark(ns, 'fresh', 'EvictionByEvictionAPI', ago(10_000))
    await mark(ns, 'kubelet', 'TerminationByKubelet', ago(10 * 60_000))
    await mark(ns, 'done', 'EvictionByEvictionAPI', ago(10 * 60_000))
    // A stale mark made after them is cleared: once it is, the controller has seen the others too.
    expect((await req('POST', podPath(ns), pod('probe'))).status).toBe(201)
    await running(ns, 'probe')
    await mark(ns, 'probe', 'PreemptionByScheduler', ago(5 * 60_000))
    await waitFor('the probe cleared', async () =>
      cond((await req('GET', podPath(ns, 'probe'))).json)?.status === 'False' ? true : undefined,
    )
    for (const n of ['fresh', 'kubelet', 'done'])
      expect(cond((await req('GET', podPath(ns, n))).json)?.status, n).toBe('True')
  })

  it('a pod being deleted keeps its mark', async () => {
    const ns = await makeNamespace('stale')
    const held = pod('held')
    ;(held.metadata as any).finalizers = ['example.com/hold']
    expect((await req('POST', podPath(ns), held)).status).toBe(201)
    await running(ns, 'held')
    expect((await req('DELETE', podPath(ns, 'held'))).status).toBe(200)
    expect((await req('GET', podPath(ns, 'held'))).json.metadata.deletionTimestamp).toBeDefined()
    await mark(ns, 'held', 'EvictionByEvictionAPI', ago(3 * 60_000))
    expect((await req('POST', podPath(ns), pod('probe'))).status).toBe(201)
    await running(ns, 'probe')
    await mark(ns, 'probe', 'EvictionByEvictionAPI', ago(5 * 60_000))
    await waitFor('the probe cleared', async () =>
      cond((await req('GET', podPath(ns, 'probe'))).json)?.status === 'False' ? true : undefined,
    )
    expect(cond((await req('GET', podPath(ns, 'held'))).json)?.status).toBe('True')
  })
})
