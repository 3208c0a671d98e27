// The replication manager's expectations, driven against an in-memory host whose write queue we flush by hand: a
// spec that shrinks while creates are queued, overlapping triggers, and deletions re-checked when they are planned.
import { describe, expect, it } from 'vitest'
import { ReplicationManager } from '../../src/namespace/replication-controller'
import type { ControllerHost } from '../../src/host/controller'
import type { LogEntry } from '../../src/log/d1-log'
import type { Change, Stored } from '../../src/registry/store'
import type { KubeObject } from '../../src/schema/meta'

/** A host whose writes wait until flush(): every queued job is planned against the same state, then all commit. */
class QueueHost implements ControllerHost {
  readonly scope = 'ns'
  readonly env = {} as Env
  private objects = new Map<string, Stored>()
  private queue: { resource: string; name: string; plan: (s: Stored | null) => Change | null; resolve: (e: LogEntry | null) => void }[] = []
  private rv = 1
  created: string[] = []
  deleted: string[] = []

  get(resource: string, name: string) {
    return this.objects.get(`${resource}/${name}`) ?? null
  }
  all(resource: string) {
    return [...this.objects].filter(([k]) => k.startsWith(`${resource}/`)).map(([, v]) => v)
  }
  attending(resource: string) {
    return this.all(resource)
  }
  owners() {
    return []
  }
  dependents(uid: string) {
    return [...this.objects]
      .filter(([, v]) => (v.object.metadata.ownerReferences ?? []).some((r) => r.uid === uid))
      .map(([k]) => ({ resource: k.slice(0, k.indexOf('/')), name: k.slice(k.indexOf('/') + 1) }))
  }
  write(resource: string, name: string, plan: (s: Stored | null) => Change | null) {
    return new Promise<LogEntry | null>((resolve) => this.queue.push({ resource, name, plan, resolve }))
  }
  async wakeAt() {}
  /** The replication manager writes through write(); a create through the verb here would be a regression. */
  async create(): Promise<never> {
    throw new Error('unexpected create through the verb')
  }
  put(resource: string, obj: KubeObject) {
    this.objects.set(`${resource}/${obj.metadata.name}`, { rv: this.rv++, object: obj })
  }
  get pending() {
    return this.queue.length
  }
  /** One group commit: plan every queued job against the same state, then apply them all. */
  flush() {
    const jobs = this.queue.splice(0)
    const planned = jobs.map((j) => ({ j, change: j.plan(this.get(j.resource, j.name)) }))
    for (const { j, change } of planned) {
      if (!change) {
        j.resolve(null)
        continue
      }
      const rv = this.rv++
      if (change.type === 'DELETED' || change.object.metadata.deletionTimestamp) {
        if (j.resource === 'pods') this.deleted.push(j.name)
      } else if (change.type === 'ADDED' && j.resource === 'pods') this.created.push(j.name)
      if (change.type === 'DELETED') this.objects.delete(`${j.resource}/${j.name}`)
      else this.objects.set(`${j.resource}/${j.name}`, { rv, object: change.object })
      j.resolve({ ...change, rv, prevRv: change.prevRv } as LogEntry)
    }
  }
  livePods() {
    return this.all('pods').filter((s) => !s.object.metadata.deletionTimestamp)
  }
}

const rc = (replicas: number): KubeObject =>
  ({
    apiVersion: 'v1',
    kind: 'ReplicationController',
    metadata: { name: 'web', namespace: 'ns', uid: 'rc-uid', generation: 1 },
    spec: { replicas, selector: { app: 'web' }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
    status: { replicas: 0 },
  }) as KubeObject

const setReplicas = (host: QueueHost, n: number) => {
  const cur = host.get('replicationcontrollers', 'web')!.object as any
  host.put('replicationcontrollers', { ...cur, spec: { ...cur.spec, replicas: n } })
}

/** Runs work to completion, flushing the queue whenever it has jobs; `before(i)` runs before the i-th flush. */
async function drive(host: QueueHost, work: Promise<unknown>, before: (i: number) => void = () => undefined) {
  let done = false
  void work.then(() => (done = true))
  for (let i = 0; !done; ) {
    await new Promise((r) => setTimeout(r, 0))
    if (host.pending > 0) before(i++), host.flush()
    if (i > 200) throw new Error('no progress')
  }
  await work
}

const manager = () => new ReplicationManager({ canCreate: () => true })

describe('replication expectations', () => {
  it('a spec that shrinks before the queued creates are planned creates only what it asks for', async () => {
    const host = new QueueHost()
    host.put('replicationcontrollers', rc(5))
    await drive(host, manager().resync(host), (i) => {
      if (i === 0) setReplicas(host, 3)
    })
    expect(host.livePods()).toHaveLength(3)
    expect(host.created).toHaveLength(3)
    expect(host.deleted).toHaveLength(0)
  })

  it('2 -> 5 -> 3: the creates stop at 3, nothing is deleted', async () => {
    const host = new QueueHost()
    host.put('replicationcontrollers', rc(2))
    const m = manager()
    await drive(host, m.resync(host))
    expect(host.created).toHaveLength(2)
    setReplicas(host, 5)
    // The first slow-start batch (1 pod) commits, then the spec goes to 3 before the next batch is planned.
    await drive(host, m.resync(host), (i) => {
      if (i === 1) setReplicas(host, 3)
    })
    expect(host.livePods()).toHaveLength(3)
    expect(host.created).toHaveLength(3)
    expect(host.deleted).toHaveLength(0)
  })

  it('overlapping triggers run one sync at a time: never more pods than replicas', async () => {
    const host = new QueueHost()
    host.put('replicationcontrollers', rc(4))
    const m = manager()
    const rcEntry = { type: 'MODIFIED', resource: 'replicationcontrollers', name: 'web', namespace: 'ns', rv: 1, object: rc(4), prev: null, prevRv: null } as unknown as LogEntry
    await drive(host, Promise.all([m.onCommitted([rcEntry], host), m.onCommitted([rcEntry], host), m.resync(host)]))
    expect(host.livePods()).toHaveLength(4)
    expect(host.created).toHaveLength(4)
  })

  it('deletions planned in one batch stop at the spec, even when it grows meanwhile', async () => {
    const host = new QueueHost()
    host.put('replicationcontrollers', rc(5))
    const m = manager()
    await drive(host, m.resync(host))
    setReplicas(host, 1)
    await drive(host, m.resync(host), (i) => {
      // The deletions are queued for 4 pods; the spec goes back up to 3 before they are planned.
      if (i === 0) setReplicas(host, 3)
    })
    expect(host.livePods()).toHaveLength(3)
    expect(host.deleted).toHaveLength(2)
    const status = (host.get('replicationcontrollers', 'web')!.object as any).status
    expect(status).toMatchObject({ replicas: 3, fullyLabeledReplicas: 3, observedGeneration: 1 })
  })
})
