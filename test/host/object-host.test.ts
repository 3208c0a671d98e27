// The generic host over its in-memory parts: every write, a controller's included, goes through the kind's strategy;
// a controller's mutation runs against the newest object; a failed commit leaves nothing behind; catch-up applies
// what the log holds.
import { describe, expect, it } from 'vitest'
import type { Controller } from '../../src/host/controller'
import { MemoryChangeLog } from '../../src/host/memory-change-log'
import type { KubeObject } from '../../src/schema/meta'
import { memoryHost, openPolicy } from '../support/memory-host'

const pod = (name: string, labels: Record<string, string> = {}): KubeObject => ({
  kind: 'Pod',
  apiVersion: 'v1',
  metadata: { name, labels },
  spec: { containers: [{ name: 'c', image: 'nginx' }] },
})

describe('ObjectHost', () => {
  it("validates a controller's writes as it validates a client's", async () => {
    const { host, log } = memoryHost()
    // As a client creates it: under a manager, so updates are tracked (kube tracks none on an object without any).
    await host.create('pods', pod('p'), { fieldManager: 'kubectl' })
    const commits = log.commits
    const bad = await host.controllerView.update('pods', 'p', (p) => ({
      ...p,
      metadata: { ...p.metadata, labels: { 'bad key!': 'x' } },
    }))
    expect(bad.ok).toBe(false)
    if (!bad.ok) expect(bad.status).toMatchObject({ code: 422, reason: 'Invalid' })
    expect(log.commits).toBe(commits)
    // A status write through the controller view is planned with the status strategy: the spec stays.
    const status = await host.controllerView.update(
      'pods',
      'p',
      (p) => ({
        ...p,
        spec: { containers: [{ name: 'other', image: 'x' }] },
        status: { ...(p.status as object), phase: 'Running' },
      }),
      { subresource: 'status', fieldManager: 'kubelet' },
    )
    expect(status.ok ? status.value?.object : status.status.message).toMatchObject({
      spec: { containers: [{ name: 'c' }] },
      status: { phase: 'Running' },
    })
    const managers = host.objects
      .get('pods', 'p')!
      .object.metadata.managedFields?.map((m) => `${m.manager}/${m.subresource ?? ''}`)
    expect(managers).toContain('kubelet/status')
  })

  it('runs a mutation against the newest object, and a declined one writes nothing', async () => {
    const { host, log } = memoryHost()
    await host.create('pods', pod('p', { n: '0' }))
    const bumps = Array.from({ length: 5 }, () =>
      host.controllerView.update('pods', 'p', (p) => {
        p.metadata.labels = { n: String(Number(p.metadata.labels?.n) + 1) }
        return p
      }),
    )
    await Promise.all(bumps)
    expect(host.objects.get('pods', 'p')!.object.metadata.labels).toEqual({ n: '5' })
    const commits = log.commits
    const declined = await host.controllerView.update('pods', 'p', () => null)
    expect(declined).toEqual({ ok: true, value: null })
    expect(log.commits).toBe(commits)
  })

  it('reconciles to whatever the decision wants: create, update, delete, nothing', async () => {
    const { host } = memoryHost()
    const v = host.controllerView
    const created = await v.reconcile('pods', 'r', (cur) => (cur ? null : { create: pod('r') }))
    expect(created.ok && created.value?.created).toBe(true)
    const updated = await v.reconcile('pods', 'r', (cur) =>
      cur ? { update: { ...cur, metadata: { ...cur.metadata, labels: { u: '1' } } } } : null,
    )
    expect(updated.ok && updated.value?.object.metadata.labels).toEqual({ u: '1' })
    await v.reconcile('pods', 'r', () => ({ delete: { gracePeriodSeconds: 0 } }))
    expect(host.objects.get('pods', 'r')).toBeNull()
    expect(await v.reconcile('pods', 'r', () => null)).toEqual({ ok: true, value: null })
  })

  it('answers 503 for a commit that failed and did not land, and applies nothing', async () => {
    const log = new MemoryChangeLog()
    const { host } = memoryHost({ log })
    // The pod's ServiceAccount first, so the failing commit is the pod's.
    await host.create('serviceaccounts', { metadata: { name: 'default' } })
    log.failNext = { error: new Error('D1_ERROR: timed out') }
    const r = await host.create('pods', pod('p'))
    expect(r.ok).toBe(false)
    if (!r.ok) expect(r.status.code).toBe(503)
    expect(host.objects.get('pods', 'p')).toBeNull()
    expect((await host.create('pods', pod('p'))).ok).toBe(true)
  })

  it('a commit whose answer was lost is found in the log and answered as a success', async () => {
    const log = new MemoryChangeLog()
    const { host } = memoryHost({ log })
    log.failNext = { error: new Error('D1_ERROR: timed out'), landed: true }
    const r = await host.create('pods', pod('p'))
    expect(r.ok).toBe(true)
    expect(host.objects.get('pods', 'p')?.rv).toBe(Number(r.ok && r.value.object.metadata.resourceVersion))
  })

  it('catches up on start with what the log holds for its scope', async () => {
    const log = new MemoryChangeLog()
    const first = memoryHost({ log }).host
    await first.create('pods', pod('a'))
    await first.create('pods', pod('b'))
    // A new host of the same scope over the same log (a Durable Object whose local state was lost) catches up.
    const second = memoryHost({ log }).host
    await second.start()
    expect(second.objects.names('pods')).toEqual(['a', 'b'])
  })

  it("an alarm resyncs the controllers whose wake-up is due, not every controller; a shared wake-up is everyone's", async () => {
    const resyncs: string[] = []
    const controller = (name: string, wakeIn: number | null): Controller => ({
      name,
      async onCommitted(_entries, host) {
        if (wakeIn !== null) await host.wakeAt(1_000 + wakeIn)
      },
      async resync() {
        resyncs.push(name)
      },
    })
    const { host } = memoryHost({ controllers: [controller('timed', 10), controller('idle', null)] })
    await host.create('pods', pod('p'))
    await new Promise((r) => setTimeout(r, 20))
    await host.alarm(1_005)
    expect(resyncs).toEqual([])
    await host.alarm(1_010)
    expect(resyncs).toEqual(['timed'])
    await host.alarm(1_020)
    expect(resyncs).toEqual(['timed'])
    // A wake-up asked through the host's shared view (not a controller's own) brings every controller back.
    await host.controllerView.wakeAt(1_030)
    await host.alarm(1_030)
    expect(resyncs).toEqual(['timed', 'timed', 'idle'])
  })

  it('an alarm that rang for other work first keeps the wake-up a controller still waits for', async () => {
    // The node lifecycle controller's eviction due in 2 s was lost so: the service allocation repair's alarm rang a
    // moment before it, the controller was not due yet, and the object's one alarm was set again for the repair's
    // next time only (none), so nothing woke the controller until something else happened to.
    let repairAt: number | null = 1_005
    const policy = {
      ...openPolicy(),
      nextAlarmAt: () => repairAt,
      async onAlarm(now: number) {
        if (repairAt !== null && repairAt <= now) repairAt = null
      },
    }
    const resyncs: number[] = []
    const controller: Controller = {
      name: 'timed',
      async onCommitted(_entries, host) {
        await host.wakeAt(1_010)
      },
      async resync(_host, now) {
        resyncs.push(now)
      },
    }
    const { host, alarms } = memoryHost({ policy, controllers: [controller] })
    await host.create('pods', pod('p'))
    await new Promise((r) => setTimeout(r, 20))
    await host.scheduleAlarm()
    expect(alarms.ring()).toBe(1_005)
    await host.alarm(1_005)
    expect(resyncs).toEqual([])
    expect(await alarms.next()).toBe(1_010)
    expect(alarms.ring()).toBe(1_010)
    await host.alarm(1_010)
    expect(resyncs).toEqual([1_010])
    expect(await alarms.next()).toBe(null)
  })
})
