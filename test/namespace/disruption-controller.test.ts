// PodDisruptionBudgets end to end in the namespace object: the disruption controller's status (exact watch events),
// evictions refused with kube's 429 while the budget is spent and allowed once a pod becomes ready, the eviction
// recorded in disruptedPods, unready pods evicted without spending the budget, several budgets refused, dry runs,
// percentages resolved against the pods' controller's scale, an eviction whose pod was not deleted in time (kube's
// NotDeleted event), and the pods/eviction request's own errors.
import { describe, expect, it } from 'vitest'
import { makeNamespace, openWatch, pod, req, waitFor } from '../helpers'

const GATE = 'example.com/ready'
const pdbs = (ns: string) => `/apis/policy/v1/namespaces/${ns}/poddisruptionbudgets`
const podPath = (ns: string, name = '') => `/api/v1/namespaces/${ns}/pods${name ? `/${name}` : ''}`
const evict = (ns: string, name: string, extra: Record<string, unknown> = {}, query = '') =>
  req('POST', `${podPath(ns, name)}/eviction${query}`, {
    apiVersion: 'policy/v1',
    kind: 'Eviction',
    metadata: { name, namespace: ns },
    ...extra,
  })

const gated = (name: string) => pod(name, { app: 'web' }, { readinessGates: [{ conditionType: GATE }] })
const cond = (p: any, type: string) => (p.status?.conditions ?? []).find((c: any) => c.type === type)

async function running(ns: string, name: string) {
  return waitFor(`${name} running`, async () => {
    const p = (await req('GET', podPath(ns, name))).json
    return p?.status?.phase === 'Running' ? p : undefined
  })
}

/** Opens the readiness gate through pods/status; waits until the kubelet reports the pod Ready. */
async function makeReady(ns: string, name: string) {
  const r = await req(
    'PATCH',
    `${podPath(ns, name)}/status`,
    { status: { conditions: [{ type: GATE, status: 'True' }] } },
    { 'content-type': 'application/strategic-merge-patch+json' },
  )
  expect(r.status, r.text).toBe(200)
  return waitFor(`${name} ready`, async () => {
    const p = (await req('GET', podPath(ns, name))).json
    return cond(p, 'Ready')?.status === 'True' ? p : undefined
  })
}

const statusOf = (e: any) => {
  const { conditions, ...rest } = e.object.status
  return { ...rest, conditions: (conditions ?? []).map((c: any) => `${c.type}=${c.status}/${c.reason}`) }
}

describe('disruption controller and evictions', () => {
  it('a budget blocks an eviction (429) until another pod becomes ready, then lets exactly one through', async () => {
    const ns = await makeNamespace('pdb')
    for (const n of ['web-0', 'web-1', 'web-2']) expect((await req('POST', podPath(ns), gated(n))).status).toBe(201)
    for (const n of ['web-0', 'web-1', 'web-2']) await running(ns, n)
    await makeReady(ns, 'web-0')
    await makeReady(ns, 'web-1')

    const created = await req('POST', pdbs(ns), {
      apiVersion: 'policy/v1',
      kind: 'PodDisruptionBudget',
      metadata: { name: 'web' },
      spec: { minAvailable: 2, selector: { matchLabels: { app: 'web' } } },
    })
    expect(created.status, created.text).toBe(201)
    const watch = await openWatch(`${pdbs(ns)}?watch=true&resourceVersion=${created.json.metadata.resourceVersion}`)
    const [computed] = await watch.take(1)
    expect(computed.type).toBe('MODIFIED')
    expect(statusOf(computed)).toEqual({
      observedGeneration: 1,
      disruptionsAllowed: 0,
      currentHealthy: 2,
      desiredHealthy: 2,
      expectedPods: 3,
      conditions: ['DisruptionAllowed=False/InsufficientPods'],
    })

    const blocked = await evict(ns, 'web-0')
    expect(blocked.status).toBe(429)
    expect(blocked.headers.get('retry-after')).toBeNull()
    expect(blocked.json).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: "Cannot evict pod as it would violate the pod's disruption budget.",
      reason: 'TooManyRequests',
      details: {
        causes: [
          { reason: 'DisruptionBudget', message: 'The disruption budget web needs 2 healthy pods and has 2 currently' },
        ],
      },
      code: 429,
    })
    expect((await req('GET', podPath(ns, 'web-0'))).json.metadata.deletionTimestamp).toBeUndefined()

    await makeReady(ns, 'web-2')
    const [allowed] = await watch.take(1)
    expect(statusOf(allowed)).toEqual({
      observedGeneration: 1,
      disruptionsAllowed: 1,
      currentHealthy: 3,
      desiredHealthy: 2,
      expectedPods: 3,
      conditions: ['DisruptionAllowed=True/SufficientPods'],
    })

    // A dry run checks and writes nothing.
    const dry = await evict(ns, 'web-0', {}, '?dryRun=All')
    expect(dry.status, dry.text).toBe(201)
    const ok = await evict(ns, 'web-0')
    expect(ok.status, ok.text).toBe(201)
    expect(ok.json).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 })
    const [taken] = await watch.take(1)
    expect(statusOf(taken)).toMatchObject({
      disruptionsAllowed: 0,
      currentHealthy: 3,
      conditions: ['DisruptionAllowed=False/InsufficientPods'],
    })
    expect(Object.keys(taken.object.status.disruptedPods)).toEqual(['web-0'])
    expect(taken.object.metadata.managedFields.some((m: any) => m.subresource === 'status')).toBe(true)

    // The next eviction meets the spent budget at once (3 healthy as the eviction left the status, or 2 once the
    // controller has seen web-0 terminating).
    const again = await evict(ns, 'web-1')
    expect(again.status).toBe(429)
    expect(again.json.details.causes[0].message).toMatch(
      /^The disruption budget web needs 2 healthy pods and has [23] currently$/,
    )

    // Once web-0 is gone the controller forgets the eviction and counts what is left.
    const settled = await waitFor('the budget to settle', async () => {
      const g = (await req('GET', `${pdbs(ns)}/web`)).json
      return g.status.expectedPods === 2 ? g : undefined
    })
    expect(settled.status.disruptedPods).toBeUndefined()
    expect(settled.status).toMatchObject({ disruptionsAllowed: 0, currentHealthy: 2, desiredHealthy: 2 })
    await watch.cancel()
  })

  it('an unready pod is evicted without spending a met budget; a pod under two budgets is refused with 500', async () => {
    const ns = await makeNamespace('pdb')
    for (const n of ['a', 'b', 'c']) expect((await req('POST', podPath(ns), gated(n))).status).toBe(201)
    for (const n of ['a', 'b', 'c']) await running(ns, n)
    await makeReady(ns, 'a')
    await makeReady(ns, 'b')
    const spec = { minAvailable: 2, selector: { matchLabels: { app: 'web' } } }
    expect((await req('POST', pdbs(ns), { metadata: { name: 'one' }, spec })).status).toBe(201)
    await waitFor('budget computed', async () =>
      (await req('GET', `${pdbs(ns)}/one`)).json.status.currentHealthy === 2 ? true : undefined,
    )
    const r = await evict(ns, 'c')
    expect(r.status, r.text).toBe(201)
    const after = (await req('GET', `${pdbs(ns)}/one`)).json
    expect(after.status.disruptedPods).toBeUndefined()

    expect(
      (
        await req('POST', pdbs(ns), {
          metadata: { name: 'two' },
          spec: { maxUnavailable: 1, selector: { matchExpressions: [{ key: 'app', operator: 'Exists' }] } },
        })
      ).status,
    ).toBe(201)
    const two = await evict(ns, 'a')
    expect(two.status).toBe(500)
    expect(two.json).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.',
      code: 500,
    })
  })

  it('percentages resolve against the pods’ controller scale; a pod without a controller fails the sync safely', async () => {
    const ns = await makeNamespace('pdb')
    const rc = await req('POST', `/api/v1/namespaces/${ns}/replicationcontrollers`, {
      metadata: { name: 'web' },
      spec: {
        replicas: 4,
        selector: { app: 'web' },
        template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
      },
    })
    expect(rc.status).toBe(201)
    expect(
      (
        await req('POST', pdbs(ns), {
          metadata: { name: 'half' },
          spec: { minAvailable: '50%', selector: { matchLabels: { app: 'web' } } },
        })
      ).status,
    ).toBe(201)
    const half = await waitFor('4 healthy', async () => {
      const g = (await req('GET', `${pdbs(ns)}/half`)).json
      return g.status.currentHealthy === 4 ? g : undefined
    })
    expect(half.status).toMatchObject({ expectedPods: 4, desiredHealthy: 2, disruptionsAllowed: 2 })
    // Scaling the controller moves the denominator.
    await req(
      'PATCH',
      `/api/v1/namespaces/${ns}/replicationcontrollers/web/scale`,
      { spec: { replicas: 6 } },
      { 'content-type': 'application/merge-patch+json' },
    )
    await waitFor('6 expected', async () =>
      (await req('GET', `${pdbs(ns)}/half`)).json.status.expectedPods === 6 ? true : undefined,
    )

    // A pod without a controller is reported (an UnmanagedPods event) and not counted.
    expect((await req('POST', podPath(ns), pod('stray', { app: 'web' }))).status).toBe(201)
    const events = await waitFor('UnmanagedPods', async () => {
      const list = (await req('GET', `/api/v1/namespaces/${ns}/events`)).json.items as any[]
      const found = list.filter((e) => e.reason === 'UnmanagedPods')
      return found.length > 0 ? found : undefined
    })
    expect(events[0].involvedObject).toMatchObject({ kind: 'PodDisruptionBudget', name: 'half' })
    expect(events[0].message).toBe(
      'Pods selected by this PodDisruptionBudget (selector: &LabelSelector{MatchLabels:map[string]string{app: web,},MatchExpressions:[]LabelSelectorRequirement{},}) were found to be unmanaged. As a result, the status of the PDB cannot be calculated correctly, which may result in undefined behavior. To account for these pods please set ".spec.minAvailable" field of the PDB to an integer value.',
    )
    expect((await req('GET', `${pdbs(ns)}/half`)).json.status.expectedPods).toBe(6)

    // A pod whose controller cannot be found fails the sync safely: nothing may be disrupted. The garbage collector
    // deletes such a pod at once (its owner is not there); a finalizer keeps it, deleting, as kube's budgets count
    // deleting pods' controllers too.
    const lost = pod('lost', { app: 'web' })
    ;(lost.metadata as any).ownerReferences = [
      { apiVersion: 'v1', kind: 'ReplicationController', name: 'gone', uid: 'u-gone', controller: true },
    ]
    ;(lost.metadata as any).finalizers = ['example.com/hold']
    expect((await req('POST', podPath(ns), lost)).status).toBe(201)
    const failed = await waitFor('SyncFailed', async () => {
      const g = (await req('GET', `${pdbs(ns)}/half`)).json
      return g.status.conditions?.[0]?.reason === 'SyncFailed' ? g : undefined
    })
    expect(failed.status.disruptionsAllowed).toBe(0)
    expect(failed.status.conditions[0]).toMatchObject({
      status: 'False',
      message: 'found no controllers for pod "lost"',
    })
  })

  it('a pod evicted over two minutes ago and not deleted is dropped from disruptedPods with kube’s NotDeleted event', async () => {
    const ns = await makeNamespace('pdb')
    expect((await req('POST', podPath(ns), gated('stuck'))).status).toBe(201)
    await running(ns, 'stuck')
    const created = await req('POST', pdbs(ns), {
      metadata: { name: 'guard' },
      spec: { minAvailable: 0, selector: { matchLabels: { app: 'web' } } },
    })
    expect(created.status, created.text).toBe(201)
    await waitFor('the budget computed', async () =>
      (await req('GET', `${pdbs(ns)}/guard`)).json.status?.observedGeneration === 1 ? true : undefined,
    )
    // An eviction recorded three minutes ago whose pod is still there (kube's DeletionTimeout is two minutes).
    const long = new Date(Date.now() - 3 * 60_000).toISOString().replace(/\.\d+Z$/, 'Z')
    const put = await req(
      'PATCH',
      `${pdbs(ns)}/guard/status`,
      { status: { disruptedPods: { stuck: long } } },
      { 'content-type': 'application/merge-patch+json' },
    )
    expect(put.status, put.text).toBe(200)
    const events = await waitFor('NotDeleted', async () => {
      const list = (await req('GET', `/api/v1/namespaces/${ns}/events`)).json.items as any[]
      const found = list.filter((e) => e.reason === 'NotDeleted')
      return found.length > 0 ? found : undefined
    })
    expect(events[0].involvedObject).toMatchObject({ kind: 'Pod', name: 'stuck' })
    expect(events[0].type).toBe('Warning')
    // kube's controller formats the budget's namespace twice (pdb.Namespace, pdb.Namespace): so does the wire.
    expect(events[0].message).toBe(`Pod was expected by PDB ${ns}/${ns} to be deleted but it wasn't`)
    const g = await waitFor('the eviction forgotten', async () => {
      const b = (await req('GET', `${pdbs(ns)}/guard`)).json
      return b.status.disruptedPods === undefined ? b : undefined
    })
    expect(g.status.disruptedPods).toBeUndefined()
  })

  it('an evicted pod is marked DisruptionTarget (EvictionByEvictionAPI) before its delete; preconditions are checked first', async () => {
    const ns = await makeNamespace('pdb')
    // Pending (no node fits) and held by a finalizer, so the deleted pod stays to be read.
    const held = pod('held', { app: 'x' }, { nodeSelector: { nowhere: 'true' } })
    ;(held.metadata as any).finalizers = ['example.com/hold']
    const created = await req('POST', podPath(ns), held)
    expect(created.status, created.text).toBe(201)

    const wrongUid = await evict(ns, 'held', { deleteOptions: { preconditions: { uid: 'not-it' } } })
    expect(wrongUid.status).toBe(409)
    expect(wrongUid.json).toMatchObject({
      reason: 'Conflict',
      message: `Operation cannot be fulfilled on Pod "held": the UID in the precondition (not-it) does not match the UID in record (${created.json.metadata.uid}). The object might have been deleted and then recreated`,
      details: { name: 'held', kind: 'Pod' },
    })
    expect(cond((await req('GET', podPath(ns, 'held'))).json, 'DisruptionTarget')).toBeUndefined()

    // A dry run marks nothing; nor do options the delete would refuse.
    expect((await evict(ns, 'held', {}, '?dryRun=All')).status).toBe(201)
    const bogus = await evict(ns, 'held', { deleteOptions: { dryRun: ['Bogus'] } })
    expect(bogus.status, bogus.text).toBe(422)
    expect(bogus.json.message).toBe(
      'DeleteOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: []string{"Bogus"}: supported values: "All"',
    )
    expect(cond((await req('GET', podPath(ns, 'held'))).json, 'DisruptionTarget')).toBeUndefined()

    const ok = await evict(ns, 'held')
    expect(ok.status, ok.text).toBe(201)
    const after = (await req('GET', podPath(ns, 'held'))).json
    expect(after.metadata.deletionTimestamp).toBeDefined()
    expect(cond(after, 'DisruptionTarget')).toEqual({
      type: 'DisruptionTarget',
      status: 'True',
      lastProbeTime: null,
      lastTransitionTime: expect.any(String),
      reason: 'EvictionByEvictionAPI',
      message: 'Eviction API: evicting',
    })
    // Written inside the eviction's storage: no manager owns it.
    expect(JSON.stringify(after.metadata.managedFields ?? [])).not.toContain('DisruptionTarget')
  })

  it('pods/eviction refusals of the request itself', async () => {
    const ns = await makeNamespace('pdb')
    expect((await evict(ns, 'ghost')).status).toBe(404)
    expect((await evict(ns, 'ghost')).json.message).toBe('pods "ghost" not found')
    const mismatch = await req('POST', `${podPath(ns, 'a')}/eviction`, {
      apiVersion: 'policy/v1',
      kind: 'Eviction',
      metadata: { name: 'b' },
    })
    expect(mismatch.status).toBe(400)
    expect(mismatch.json.message).toBe('name in URL does not match name in Eviction object')
    const nameless = await req('POST', `${podPath(ns, 'a')}/eviction`, { apiVersion: 'policy/v1', kind: 'Eviction' })
    expect(nameless.status).toBe(400)
    const dry = await evict(ns, 'a', { deleteOptions: { dryRun: ['All'] } }, '?dryRun=All&dryRun=All')
    expect(dry.status).toBe(500)
    expect(dry.json.message).toBe('Non-matching dry-run options in request and content: [All All] and [All]')
    const garbage = await req('POST', `${podPath(ns, 'a')}/eviction`, '{"metadata": 5}')
    expect(garbage.status).toBe(400)
    // A pending pod (no node) is deleted without consulting any budget.
    expect(
      (await req('POST', podPath(ns), pod('pending', { app: 'x' }, { nodeSelector: { nowhere: 'true' } }))).status,
    ).toBe(201)
    expect((await evict(ns, 'pending')).status).toBe(201)
  })
})
