// Refused creates retried as kube's controllers retry them: the backoff (5 ms doubling to 1000 s, the overall bucket),
// only the owners due run on an alarm, a quota change retries at once. Through the Worker a quota of two pods holds a
// ReplicaSet, a Deployment, a Job and a StatefulSet of three to two pods (a DaemonSet to one short of its nodes) with
// kube's FailedCreate event (and the ReplicaSet's and Deployment's ReplicaFailure condition) until the quota is raised,
// when the missing pods come and the condition goes; a quota on ReplicaSets or Jobs holds a Deployment's ReplicaSet
// (ReplicaSetCreateError) or a CronJob's Job (FailedCreate) the same way.
import { describe, expect, it } from 'vitest'
import type { ControllerHost } from '../../src/host/controller'
import { CreateRetries, JOB_LIMITER, namespaceClosed } from '../../src/namespace/create-retries'
import { CronJobController } from '../../src/namespace/cronjob-controller'
import { replicaSetKind } from '../../src/namespace/replica-kinds'
import { ReplicaManager } from '../../src/namespace/replica-manager'
import { QuotaLedger } from '../../src/namespace/quota-ledger'
import { ResourceQuotaController } from '../../src/namespace/resource-quota-controller'
import { statuses } from '../../src/registry/status'
import type { KubeObject } from '../../src/schema/meta'
import { makeNamespace, quotaSynced, req, waitFor } from '../helpers'
import { memoryHost } from '../support/memory-host'
import { jobHost } from './job-host'

/** A host that only records the wake-ups asked of it. */
function wakeHost() {
  const wakes: number[] = []
  const host = { wakeAt: async (at: number) => void wakes.push(at) } as unknown as ControllerHost
  return { host, wakes }
}

describe('CreateRetries', () => {
  it('backs an owner off 5 ms, 10 ms, 20 ms... up to 1000 s, and starts over once it is forgotten', async () => {
    const retries = new CreateRetries()
    const { host, wakes } = wakeHost()
    const run = async () => {}
    // Each failure is scheduled from the same instant: the pending retry is replaced by the later one only when the
    // earlier has run, so take it between failures as an alarm would.
    const delays: number[] = []
    for (let i = 0; i < 20; i++) {
      await retries.failed('replicasets/web', run, host, { now: 1_000_000 })
      delays.push(wakes.at(-1)! - 1_000_000)
      await retries.resync(host, Number.POSITIVE_INFINITY)
    }
    expect(delays.slice(0, 5)).toEqual([5, 10, 20, 40, 80])
    expect(delays.at(-1)).toBe(1_000_000)
    retries.forget('replicasets/web')
    await retries.failed('replicasets/web', run, host, { now: 2_000_000 })
    expect(wakes.at(-1)).toBe(2_000_005)
  })

  it('holds a burst of owners to the overall bucket: ten a second after the first hundred', async () => {
    const retries = new CreateRetries()
    const { host, wakes } = wakeHost()
    for (let i = 0; i < 110; i++) await retries.failed(`replicasets/rs-${i}`, async () => {}, host, { now: 0 })
    expect(wakes.slice(0, 100).every((at) => at === 5)).toBe(true)
    expect(wakes.slice(100)).toEqual([100, 200, 300, 400, 500, 600, 700, 800, 900, 1000])
  })

  it('past maxRetries an owner is forgotten (kube: HandleError, Forget): its next failure backs off from 5 ms again', async () => {
    const retries = new CreateRetries()
    const { host, wakes } = wakeHost()
    let runs = 0
    const run = async () => void runs++
    for (let i = 0; i < 3; i++) {
      await retries.failed('deployments/web', run, host, { now: 0, maxRetries: 2 })
      await retries.resync(host, 1_000_000_000)
    }
    // Two timed retries (5 ms, 10 ms); the third failure is dropped, not requeued.
    expect(runs).toBe(2)
    expect(wakes).toEqual([5, 10])
    expect(retries.waiting).toBe(0)
    // A quota change does not bring it back: only the owner's own next event does (kube's informer handlers).
    await retries.onCommitted([{ type: 'DELETED', resource: 'pods', name: 'p', object: {} } as never], host)
    expect(runs).toBe(2)
    // That event's sync fails again: counted from 0, so the fresh 5 ms backoff, then 10 ms, and so on.
    await retries.failed('deployments/web', run, host, { now: 2_000, maxRetries: 2 })
    expect(wakes.at(-1)).toBe(2_005)
    await retries.resync(host, 1_000_000_000)
    await retries.failed('deployments/web', run, host, { now: 3_000, maxRetries: 2 })
    expect(wakes.at(-1)).toBe(3_010)
  })

  it('runs only the owners due when its alarm rings, and every waiting owner when a quota changes', async () => {
    const retries = new CreateRetries()
    const { host } = wakeHost()
    const ran: string[] = []
    const runOf = (key: string) => async () => void ran.push(key)
    await retries.failed('replicasets/a', runOf('a'), host, { now: 0 })
    await retries.failed('replicasets/b', runOf('b'), host, { now: 10 })
    await retries.resync(host, 5)
    expect(ran).toEqual(['a'])
    expect(retries.waiting).toBe(1)
    // A pod modified, an event written: nothing that frees room.
    const pod = { metadata: { name: 'p' }, status: { phase: 'Running' } }
    await retries.onCommitted(
      [{ type: 'MODIFIED', resource: 'pods', name: 'p', object: pod, prev: pod } as never],
      host,
    )
    expect(ran).toEqual(['a'])
    await retries.onCommitted([{ type: 'MODIFIED', resource: 'resourcequotas', name: 'q', object: {} } as never], host)
    expect(ran).toEqual(['a', 'b'])
    expect(retries.waiting).toBe(0)
  })

  it("retries on a quota's change only when it can make room: its spec changed or some usage fell", async () => {
    const retries = new CreateRetries()
    const { host } = wakeHost()
    let runs = 0
    const quota = (hard: string, used: string) => ({
      metadata: { name: 'q' },
      spec: { hard: { pods: hard } },
      status: { hard: { pods: hard }, used: { pods: used } },
    })
    const change = (prev: object, object: object) =>
      [{ type: 'MODIFIED', resource: 'resourcequotas', name: 'q', object, prev }] as never
    await retries.failed('replicasets/a', async () => void runs++, host, { now: 0 })
    // A charged create's status write only uses room up.
    await retries.onCommitted(change(quota('5', '3'), quota('5', '4')), host)
    expect(runs).toBe(0)
    await retries.onCommitted(change(quota('5', '4'), quota('5', '3')), host)
    expect(runs).toBe(1)
    await retries.failed('replicasets/a', async () => void runs++, host, { now: 0 })
    await retries.onCommitted(change(quota('5', '5'), quota('6', '5')), host)
    expect(runs).toBe(2)
  })

  it("backs a Job off as kube's Job controller does: 1 s doubling to a minute, without the bucket", async () => {
    const retries = new CreateRetries()
    const { host, wakes } = wakeHost()
    const delays: number[] = []
    for (let i = 0; i < 8; i++) {
      await retries.failed('jobs/j', async () => {}, host, { now: 0, limiter: JOB_LIMITER })
      delays.push(wakes.at(-1)!)
      await retries.resync(host, Number.POSITIVE_INFINITY)
    }
    expect(delays).toEqual([1000, 2000, 4000, 8000, 16000, 32000, 60000, 60000])
  })
})

describe('namespaceClosed', () => {
  it('is true of NamespaceLifecycle refusals (a terminating or missing namespace), not of admission refusals', () => {
    expect(namespaceClosed(statuses.namespaceTerminating({ resource: 'pods' }, 'web-', 'ns'))).toBe(true)
    expect(namespaceClosed(statuses.notFound({ resource: 'namespaces' }, 'ns'))).toBe(true)
    expect(namespaceClosed(statuses.forbidden({ resource: 'pods' }, 'web-x', 'exceeded quota: q'))).toBe(false)
    expect(namespaceClosed(statuses.notFound({ resource: 'serviceaccounts' }, 'sa'))).toBe(false)
  })
})

describe('CreateRetries in a host', () => {
  it('retries a ReplicaSet held by a quota as soon as the quota changes, without waiting for its alarm', async () => {
    const retries = new CreateRetries()
    const manager = new ReplicaManager(replicaSetKind, { canCreate: () => true, retries })
    const quotas = new ResourceQuotaController(new QuotaLedger())
    const { host, alarms } = memoryHost({ controllers: [manager, retries, quotas] })
    const view = host.controllerView
    const live = () => view.all('pods').length
    expect((await host.create('resourcequotas', quota('1') as KubeObject)).ok).toBe(true)
    // Admission enforces status.hard, which the quota controller writes.
    await waitFor('the quota synced', async () => !!(view.get('resourcequotas', 'q')?.object.status as any)?.hard)
    const rs = {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: { name: 'web' },
      spec: { replicas: 2, selector: { matchLabels: labels }, template },
    }
    expect((await host.create('replicasets', rs as KubeObject)).ok).toBe(true)
    await waitFor('one pod and a refused create', async () => live() === 1 && retries.waiting === 1)
    // Its retry is owed to the alarm within kube's first backoff; the test never rings it.
    expect(await alarms.next()).toBeLessThanOrEqual(Date.now() + 100)
    await new Promise((r) => setTimeout(r, 50))
    expect(live()).toBe(1)
    const raised = await host.mutate('resourcequotas', 'q', (q) => ({ ...q, spec: { hard: { pods: '2' } } }))
    expect(raised.ok).toBe(true)
    await waitFor('the second pod', async () => live() === 2 && retries.waiting === 0)
    await waitFor('the condition cleared', async () => {
      const s = view.get('replicasets', 'web')?.object.status as { replicas?: number; conditions?: unknown[] }
      return s.replicas === 2 && s.conditions === undefined
    })
  })
})

describe('a CronJob whose Job is refused', () => {
  it("reports kube's FailedCreate and makes the Job for the same time once the quota allows it", async () => {
    const t = jobHost((clock, retries) => [
      new CronJobController({ clock, retries }),
      new ResourceQuotaController(new QuotaLedger()),
    ])
    const q = {
      apiVersion: 'v1',
      kind: 'ResourceQuota',
      metadata: { name: 'q' },
      spec: { hard: { 'count/jobs.batch': '0' } },
    }
    await t.create('resourcequotas', q as KubeObject)
    await t.idle()
    const cj = {
      apiVersion: 'batch/v1',
      kind: 'CronJob',
      metadata: { name: 'tick' },
      spec: {
        schedule: '*/5 * * * *',
        jobTemplate: {
          spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } } },
        },
      },
    }
    await t.create('cronjobs', cj as KubeObject)
    const at = (await t.alarms.next())!
    await t.advance(at - t.clock())
    const slot = at - 100
    const name = `tick-${Math.floor(slot / 60_000)}`
    const failed = (await t.events('events')).map((e) => e.object).filter((e) => e.reason === 'FailedCreate')
    expect(failed.map((e) => `${e.type} ${e.message}`)).toEqual([
      `Warning Error creating job: jobs.batch "${name}" is forbidden: exceeded quota: q, requested: count/jobs.batch=1, used: count/jobs.batch=0, limited: count/jobs.batch=0`,
    ])
    expect(t.view.all('jobs')).toEqual([])
    const raised = await t.host.mutate('resourcequotas', 'q', (o) => ({
      ...o,
      spec: { hard: { 'count/jobs.batch': '1' } },
    }))
    expect(raised.ok).toBe(true)
    await t.idle()
    expect(t.view.all('jobs').map((s) => s.object.metadata.name)).toEqual([name])
    const status = t.view.get('cronjobs', 'tick')?.object.status as { lastScheduleTime?: string }
    expect(status.lastScheduleTime).toBe(new Date(slot).toISOString().replace('.000Z', 'Z'))
  })
})

const quota = (pods: string) => ({
  apiVersion: 'v1',
  kind: 'ResourceQuota',
  metadata: { name: 'q' },
  spec: { hard: { pods } },
})
const labels = { app: 'web' }
const template = { metadata: { labels }, spec: { containers: [{ name: 'c', image: 'nginx' }] } }
/** kube's quota refusal of a pod its controller created with generateName `prefix` (named by the generated name). */
const refusal = (prefix: string) =>
  new RegExp(
    `^pods "${prefix}[a-z0-9]{5}" is forbidden: exceeded quota: q, requested: pods=1, used: pods=2, limited: pods=2$`,
  )
const errorCreating = (prefix: string) => new RegExp(`^Error creating: ${refusal(prefix).source.slice(1)}`)

const pods = async (ns: string) =>
  ((await req('GET', `/api/v1/namespaces/${ns}/pods`)).json.items as any[]).filter((p) => !p.metadata.deletionTimestamp)
const events = async (ns: string, reason: string) =>
  ((await req('GET', `/api/v1/namespaces/${ns}/events`)).json.items as any[]).filter((e) => e.reason === reason)

/** A namespace with a quota of two pods and `path`'s owner of three made in it; answers the namespace. */
async function heldToTwo(prefix: string, path: string, body: unknown): Promise<string> {
  const ns = await makeNamespace(prefix)
  expect((await req('POST', `/api/v1/namespaces/${ns}/resourcequotas`, quota('2'))).status).toBe(201)
  await quotaSynced(ns, 'q')
  const r = await req('POST', path.replace('{ns}', ns), body)
  expect(r.status, r.text).toBe(201)
  await waitFor('two pods', async () => (await pods(ns)).length === 2)
  return ns
}

/** Raises the quota to three pods (a merge patch, as kubectl patch sends) and waits for the third pod. */
async function raiseToThree(ns: string) {
  const r = await req(
    'PATCH',
    `/api/v1/namespaces/${ns}/resourcequotas/q`,
    { spec: { hard: { pods: '3' } } },
    {
      'content-type': 'application/merge-patch+json',
    },
  )
  expect(r.status, r.text).toBe(200)
  await waitFor('three pods', async () => (await pods(ns)).length === 3)
}

describe('refused pod creates through the Worker', () => {
  it('holds a ReplicaSet at two pods with FailedCreate and ReplicaFailure, and makes the third once the quota allows', async () => {
    const ns = await heldToTwo('retry-rs', '/apis/apps/v1/namespaces/{ns}/replicasets', {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: { name: 'web' },
      spec: { replicas: 3, selector: { matchLabels: labels }, template },
    })
    const rsPath = `/apis/apps/v1/namespaces/${ns}/replicasets/web`
    const cond = await waitFor('ReplicaFailure', async () =>
      (await req('GET', rsPath)).json.status?.conditions?.find((c: any) => c.type === 'ReplicaFailure'),
    )
    expect(cond).toMatchObject({
      status: 'True',
      reason: 'FailedCreate',
      message: expect.stringMatching(refusal('web-')),
    })
    const failed = await events(ns, 'FailedCreate')
    expect(failed[0]).toMatchObject({
      type: 'Warning',
      message: expect.stringMatching(errorCreating('web-')),
      source: { component: 'replicaset-controller' },
      involvedObject: { kind: 'ReplicaSet', name: 'web' },
    })
    // Still retrying (with backoff): the condition keeps its first failure's time.
    await new Promise((r) => setTimeout(r, 300))
    const later = (await req('GET', rsPath)).json.status.conditions[0]
    expect(later.lastTransitionTime).toBe(cond.lastTransitionTime)
    await raiseToThree(ns)
    await waitFor('condition cleared', async () => {
      const status = (await req('GET', rsPath)).json.status
      return status.replicas === 3 && status.conditions === undefined
    })
  })

  it("holds a Deployment's ReplicaSet and reports its ReplicaFailure on the Deployment until the quota is raised", async () => {
    const ns = await heldToTwo('retry-deploy', '/apis/apps/v1/namespaces/{ns}/deployments', {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web' },
      spec: { replicas: 3, selector: { matchLabels: labels }, template },
    })
    const dPath = `/apis/apps/v1/namespaces/${ns}/deployments/web`
    const cond = await waitFor('ReplicaFailure on the Deployment', async () =>
      (await req('GET', dPath)).json.status?.conditions?.find((c: any) => c.type === 'ReplicaFailure'),
    )
    const [rs] = (await req('GET', `/apis/apps/v1/namespaces/${ns}/replicasets`)).json.items
    expect(cond).toMatchObject({
      status: 'True',
      reason: 'FailedCreate',
      message: expect.stringMatching(refusal(`${rs.metadata.name}-`)),
    })
    await raiseToThree(ns)
    await waitFor('Deployment condition cleared', async () => {
      const status = (await req('GET', dPath)).json.status
      return status.replicas === 3 && !status.conditions?.some((c: any) => c.type === 'ReplicaFailure')
    })
  })

  it('retries a Deployment whose ReplicaSet create a quota refuses: ReplicaSetCreateError, then the ReplicaSet', async () => {
    const ns = await makeNamespace('retry-deploy-rs')
    const q = { ...quota('10'), spec: { hard: { 'count/replicasets.apps': '0' } } }
    expect((await req('POST', `/api/v1/namespaces/${ns}/resourcequotas`, q)).status).toBe(201)
    await quotaSynced(ns, 'q')
    const d = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web' },
      spec: { replicas: 3, selector: { matchLabels: labels }, template },
    }
    expect((await req('POST', `/apis/apps/v1/namespaces/${ns}/deployments`, d)).status).toBe(201)
    const dPath = `/apis/apps/v1/namespaces/${ns}/deployments/web`
    const progressing = await waitFor('Progressing False', async () =>
      (await req('GET', dPath)).json.status?.conditions?.find(
        (c: any) => c.type === 'Progressing' && c.status === 'False',
      ),
    )
    const refused =
      /^Failed to create new replica set "(web-[a-z0-9]+)": replicasets.apps "\1" is forbidden: exceeded quota: q, requested: count\/replicasets.apps=1, used: count\/replicasets.apps=0, limited: count\/replicasets.apps=0$/
    expect(progressing.reason).toBe('ReplicaSetCreateError')
    expect(progressing.message).toMatch(refused)
    const event = await waitFor('the event', async () => (await events(ns, 'ReplicaSetCreateError'))[0])
    expect(event).toMatchObject({ type: 'Warning', source: { component: 'deployment-controller' } })
    expect(event.message).toMatch(refused)
    const r = await req(
      'PATCH',
      `/api/v1/namespaces/${ns}/resourcequotas/q`,
      { spec: { hard: { 'count/replicasets.apps': '1' } } },
      {
        'content-type': 'application/merge-patch+json',
      },
    )
    expect(r.status, r.text).toBe(200)
    await waitFor('three pods', async () => (await pods(ns)).length === 3)
    await waitFor('Progressing True', async () =>
      (await req('GET', dPath)).json.status?.conditions?.some(
        (c: any) => c.type === 'Progressing' && c.status === 'True',
      ),
    )
  })

  it('retries a ReplicaSet over a LimitRange maximum as soon as the LimitRange allows it', async () => {
    const ns = await makeNamespace('retry-limits')
    const limits = (max: string) => ({
      apiVersion: 'v1',
      kind: 'LimitRange',
      metadata: { name: 'cpu' },
      spec: { limits: [{ type: 'Container', max: { cpu: max } }] },
    })
    expect((await req('POST', `/api/v1/namespaces/${ns}/limitranges`, limits('1'))).status).toBe(201)
    const big = {
      ...template,
      spec: { containers: [{ name: 'c', image: 'nginx', resources: { limits: { cpu: '2' } } }] },
    }
    const rs = {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: { name: 'big' },
      spec: { replicas: 2, selector: { matchLabels: labels }, template: big },
    }
    expect((await req('POST', `/apis/apps/v1/namespaces/${ns}/replicasets`, rs)).status).toBe(201)
    const rsPath = `/apis/apps/v1/namespaces/${ns}/replicasets/big`
    const cond = await waitFor('ReplicaFailure', async () =>
      (await req('GET', rsPath)).json.status?.conditions?.find((c: any) => c.type === 'ReplicaFailure'),
    )
    // Validating admission: the pod is named by its (generated) name.
    expect(cond.message).toMatch(
      /^pods "big-[a-z0-9]{5}" is forbidden: maximum cpu usage per Container is 1, but limit is 2$/,
    )
    expect(await pods(ns)).toEqual([])
    const r = await req('PUT', `/api/v1/namespaces/${ns}/limitranges/cpu`, {
      ...limits('2'),
      metadata: {
        name: 'cpu',
        resourceVersion: (await req('GET', `/api/v1/namespaces/${ns}/limitranges/cpu`)).json.metadata.resourceVersion,
      },
    })
    expect(r.status, r.text).toBe(200)
    await waitFor('two pods', async () => (await pods(ns)).length === 2)
    await waitFor('condition cleared', async () => (await req('GET', rsPath)).json.status.conditions === undefined)
  })

  it('retries a ReplicaSet naming a missing PriorityClass until the class exists (the backoff alone)', async () => {
    const ns = await makeNamespace('retry-priority')
    const className = `${ns}-high`
    const prioritized = { ...template, spec: { ...template.spec, priorityClassName: className } }
    const rs = {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: { name: 'web' },
      spec: { replicas: 1, selector: { matchLabels: labels }, template: prioritized },
    }
    expect((await req('POST', `/apis/apps/v1/namespaces/${ns}/replicasets`, rs)).status).toBe(201)
    const failed = await waitFor('FailedCreate', async () => (await events(ns, 'FailedCreate'))[0])
    // Mutating admission (Priority) runs before the name is generated: kube names the prefix.
    expect(failed.message).toBe(
      `Error creating: pods "web-" is forbidden: no PriorityClass with name ${className} was found`,
    )
    const pc = { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: className }, value: 1000 }
    expect((await req('POST', '/apis/scheduling.k8s.io/v1/priorityclasses', pc)).status).toBe(201)
    const [made] = await waitFor('the pod', async () => {
      const list = await pods(ns)
      return list.length === 1 && list
    })
    expect(made.spec.priority).toBe(1000)
    await req('DELETE', `/apis/scheduling.k8s.io/v1/priorityclasses/${className}`)
  })

  it('holds a Job of parallelism three at two pods with FailedCreate until the quota is raised', async () => {
    const ns = await heldToTwo('retry-job', '/apis/batch/v1/namespaces/{ns}/jobs', {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'work' },
      spec: {
        parallelism: 3,
        completions: 3,
        template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } },
      },
    })
    const failed = await waitFor('FailedCreate', async () => (await events(ns, 'FailedCreate'))[0])
    expect(failed).toMatchObject({
      type: 'Warning',
      message: expect.stringMatching(errorCreating('work-')),
      source: { component: 'job-controller' },
    })
    await raiseToThree(ns)
    const job = (await req('GET', `/apis/batch/v1/namespaces/${ns}/jobs/work`)).json
    // kube's Job has no condition for refused creates.
    expect(job.status.conditions ?? []).toEqual([])
  })

  it('holds a DaemonSet one pod short of its nodes with FailedCreate until the quota is raised', async () => {
    const nodes = (await req('GET', '/api/v1/nodes')).json.items.length as number
    const ns = await makeNamespace('retry-ds')
    expect((await req('POST', `/api/v1/namespaces/${ns}/resourcequotas`, quota(String(nodes - 1)))).status).toBe(201)
    await quotaSynced(ns, 'q')
    const ds = {
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: { name: 'agent' },
      spec: { selector: { matchLabels: labels }, template },
    }
    expect((await req('POST', `/apis/apps/v1/namespaces/${ns}/daemonsets`, ds)).status).toBe(201)
    const failed = await waitFor('FailedCreate', async () => (await events(ns, 'FailedCreate'))[0])
    expect(failed.message).toMatch(
      new RegExp(
        `^Error creating: pods "agent-[a-z0-9]{5}" is forbidden: exceeded quota: q, requested: pods=1, used: pods=${nodes - 1}, limited: pods=${nodes - 1}$`,
      ),
    )
    expect(failed.source.component).toBe('daemonset-controller')
    expect((await pods(ns)).length).toBe(nodes - 1)
    const r = await req(
      'PATCH',
      `/api/v1/namespaces/${ns}/resourcequotas/q`,
      { spec: { hard: { pods: String(nodes) } } },
      {
        'content-type': 'application/merge-patch+json',
      },
    )
    expect(r.status, r.text).toBe(200)
    await waitFor('a pod on every node', async () => (await pods(ns)).length === nodes)
  })

  it('holds a StatefulSet at two pods with kube\'s "create Pod ... failed error" until the quota is raised', async () => {
    const ns = await heldToTwo('retry-sts', '/apis/apps/v1/namespaces/{ns}/statefulsets', {
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: { name: 'db' },
      spec: {
        replicas: 3,
        podManagementPolicy: 'Parallel',
        serviceName: 'db',
        selector: { matchLabels: labels },
        template,
      },
    })
    const failed = await waitFor('FailedCreate', async () => (await events(ns, 'FailedCreate'))[0])
    expect(failed.message).toMatch(
      /^create Pod db-[0-2] in StatefulSet db failed error: pods "db-[0-2]" is forbidden: exceeded quota: q, requested: pods=1, used: pods=2, limited: pods=2$/,
    )
    await raiseToThree(ns)
    expect((await pods(ns)).map((p) => p.metadata.name).sort()).toEqual(['db-0', 'db-1', 'db-2'])
  })
})
