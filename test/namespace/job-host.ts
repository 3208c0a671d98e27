// A namespace host over the in-memory parts with the Job, TTL-after-finished and CronJob controllers on a clock the
// test moves, and the test in the kubelet's place: it starts pods, finishes them and confirms their deletion. The
// change log gives a resource's watch events exactly as a watcher would get them.
import type { Controller } from '../../src/host/controller'
import { CreateRetries } from '../../src/namespace/create-retries'
import { GarbageCollector } from '../../src/namespace/garbage-collector'
import { JobController } from '../../src/namespace/job-controller'
import { TtlAfterFinishedController } from '../../src/namespace/ttl-after-finished-controller'
import { runningStatus, terminatedStatus } from '../../src/registry/pod-lifecycle'
import type { KubeObject } from '../../src/schema/meta'
import { memoryHost } from '../support/memory-host'

type Obj = Record<string, any>
export const SCOPE = 'ns'

export function jobHost(extra: (clock: () => number, retries: CreateRetries) => Controller[] = () => []) {
  let now = Math.floor(Date.now() / 1000) * 1000
  const clock = () => now
  const retries = new CreateRetries()
  const controllers = [
    new JobController({ canCreate: () => true, clock, retries }),
    new TtlAfterFinishedController({ clock }),
    new GarbageCollector(),
    retries,
    ...extra(clock, retries),
  ]
  const { host, log, alarms } = memoryHost({ scope: SCOPE, controllers })
  const view = host.controllerView

  /** Waits until the controllers have nothing more to write. */
  async function idle() {
    let last = -1
    for (let stable = 0; stable < 4; ) {
      await new Promise((r) => setTimeout(r, 5))
      const rv = await log.currentRv()
      if (rv === last) stable++
      else {
        stable = 0
        last = rv
      }
    }
  }

  const pods = () => view.all('pods').map((s) => s.object as Obj)
  const livePods = () =>
    pods().filter((p) => !p.metadata.deletionTimestamp && !['Succeeded', 'Failed'].includes(p.status?.phase))

  /** The kubelet's part: a pod runs (bound, started, ready). */
  async function start(name: string) {
    const r = await host.mutate(
      'pods',
      name,
      (p) => ({ ...p, status: runningStatus(p as Obj, { podIP: '10.244.1.5', hostIP: '10.0.0.11' }, new Date(now)) }),
      { subresource: 'status' },
    )
    if (!r.ok) throw new Error(r.status.message)
  }

  /** A running pod's containers exit: Succeeded, or Failed with the exit codes of their commands. */
  async function finish(name: string, phase: 'Succeeded' | 'Failed') {
    const r = await host.mutate(
      'pods',
      name,
      (p) => ({ ...p, status: terminatedStatus(p as Obj, new Date(now), { phase }) }),
      {
        subresource: 'status',
      },
    )
    if (!r.ok) throw new Error(r.status.message)
  }

  /** The kubelet confirms graceful deletions (grace 0; finalizers still hold the pods). */
  async function confirmDeletions() {
    for (const p of pods())
      if (p.metadata.deletionTimestamp) await host.delete('pods', p.metadata.name, { gracePeriodSeconds: 0 })
  }

  /** Time passes: the clock moves and the alarm rings if it is due. */
  async function advance(ms: number) {
    now += ms
    const at = await alarms.next()
    if (at !== null && at <= now) {
      alarms.ring()
      await host.alarm(now)
    }
    await idle()
  }

  /** A resource's watch events since `afterRv`, as [type, object]. */
  async function events(resource: string, afterRv = 0) {
    const entries = await log.changesFor(SCOPE, afterRv, 10_000)
    return entries
      .filter((e) => e.resource === resource)
      .map((e) => ({ type: e.type, object: e.object as Obj, rv: e.rv }))
  }

  async function create(resource: string, obj: KubeObject) {
    const r = await host.create(resource, obj)
    if (!r.ok) throw new Error(r.status.message)
    await idle()
    return r.value.object as Obj
  }

  return {
    host,
    view,
    log,
    alarms,
    clock,
    idle,
    pods,
    livePods,
    start,
    finish,
    confirmDeletions,
    advance,
    events,
    create,
  }
}

/** A Job's status in one line, for comparing watch sequences. */
export function jobLine(e: { type: string; object: Obj }): string {
  const s = e.object.status ?? {}
  const u = s.uncountedTerminatedPods
  const parts = [e.type]
  for (const k of ['active', 'ready', 'terminating', 'succeeded', 'failed', 'completedIndexes'])
    if (s[k] !== undefined) parts.push(`${k}=${s[k]}`)
  if (u) parts.push(`uncounted=${(u.succeeded ?? []).length}/${(u.failed ?? []).length}`)
  for (const c of s.conditions ?? []) parts.push(`${c.type}=${c.status}${c.reason ? `(${c.reason})` : ''}`)
  if (s.startTime) parts.push('started')
  if (s.completionTime) parts.push('completed')
  return parts.join(' ')
}

export const job = (name: string, spec: Obj = {}, command = ['sh', '-c', 'exit 0']): KubeObject =>
  ({
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name },
    spec: {
      template: { spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'busybox', command }] } },
      ...spec,
    },
  }) as KubeObject
