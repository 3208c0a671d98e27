// The replication manager's expectations, on a real host over the in-memory parts whose change log we hold: a spec
// that shrinks while creates are in flight, overlapping triggers, and deletions re-checked when they are planned.
import { describe, expect, it } from 'vitest'
import { replicationControllerKind } from '../../src/namespace/replica-kinds'
import { CreateRetries } from '../../src/namespace/create-retries'
import { ReplicaManager } from '../../src/namespace/replica-manager'
import type { KubeObject } from '../../src/schema/meta'
import { memoryHost } from '../support/memory-host'

const rc = (replicas: number): KubeObject =>
  ({
    kind: 'ReplicationController',
    apiVersion: 'v1',
    metadata: { name: 'web' },
    spec: {
      replicas,
      selector: { app: 'web' },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
    },
  }) as KubeObject

/** A host with an RC of `replicas`; the manager is not yet running (controllers would race the test's own calls). */
async function setup(replicas: number) {
  const manager = new ReplicaManager(replicationControllerKind, { canCreate: () => true, retries: new CreateRetries() })
  const { host, log } = memoryHost()
  const created = await host.create('replicationcontrollers', rc(replicas))
  if (!created.ok) throw new Error(created.status.message)
  const view = host.controllerView
  const setReplicas = (n: number) =>
    host.mutate('replicationcontrollers', 'web', (o) => ({ ...o, spec: { ...(o.spec as object), replicas: n } }))
  const live = () => view.all('pods').filter((s) => !s.object.metadata.deletionTimestamp)
  const createdPods = () => log.commits
  return { manager, host, log, view, setReplicas, live, createdPods }
}

/** Lets queued work move until `work` is done. */
const settle = (work: Promise<unknown>) =>
  Promise.race([work, new Promise((_, reject) => setTimeout(() => reject(new Error('no progress')), 5000))])

describe('replication expectations', () => {
  it('a spec that shrinks while the first creates commit creates only what it asks for', async () => {
    const t = await setup(5)
    const release = t.log.hold()
    const sync = t.manager.resync(t.view)
    // The first slow-start create is committing; the spec shrinks, queued ahead of the next batch.
    await new Promise((r) => setTimeout(r, 10))
    const shrink = t.setReplicas(3)
    release()
    await settle(Promise.all([sync, shrink]))
    expect(t.live()).toHaveLength(3)
  })

  it('2 -> 5 -> 3: the creates stop at 3, nothing is deleted', async () => {
    const t = await setup(2)
    await settle(t.manager.resync(t.view))
    expect(t.live()).toHaveLength(2)
    await t.setReplicas(5)
    const release = t.log.hold()
    const sync = t.manager.resync(t.view)
    await new Promise((r) => setTimeout(r, 10))
    const shrink = t.setReplicas(3)
    release()
    await settle(Promise.all([sync, shrink]))
    expect(t.live()).toHaveLength(3)
    expect(t.view.all('pods').filter((s) => s.object.metadata.deletionTimestamp)).toHaveLength(0)
  })

  it('overlapping triggers run one sync at a time: never more pods than replicas', async () => {
    const t = await setup(4)
    const entry = {
      rv: 1,
      type: 'MODIFIED' as const,
      resource: 'replicationcontrollers',
      namespace: 'ns',
      name: 'web',
      object: rc(4),
      prev: null,
      prevRv: null,
    }
    await settle(
      Promise.all([
        t.manager.onCommitted([entry], t.view),
        t.manager.onCommitted([entry], t.view),
        t.manager.resync(t.view),
      ]),
    )
    expect(t.live()).toHaveLength(4)
  })

  it('deletions planned in one batch stop at the spec, even when it grows meanwhile', async () => {
    const t = await setup(5)
    await settle(t.manager.resync(t.view))
    await t.setReplicas(1)
    const release = t.log.hold()
    // The spec goes back to 3 in a batch that is committing; the sync still reads 1 and queues four deletions, which
    // are planned after that batch applied, against a spec of 3.
    const grow = t.setReplicas(3)
    await new Promise((r) => setTimeout(r, 10))
    const sync = t.manager.resync(t.view)
    await new Promise((r) => setTimeout(r, 10))
    release()
    await settle(Promise.all([sync, grow]))
    expect(t.live()).toHaveLength(3)
    await settle(t.manager.resync(t.view))
    const stored = t.view.get('replicationcontrollers', 'web')!.object as any
    // Two spec changes since the create: generation 3, observed by the last sync.
    expect(stored.status).toMatchObject({ replicas: 3, fullyLabeledReplicas: 3, observedGeneration: 3 })
    expect(stored.metadata.generation).toBe(3)
  })
})
