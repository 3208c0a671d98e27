// The stateful set controller's decisions (src/registry/stateful-decisions.ts) as kube's updateStatefulSet makes them:
// ordered and parallel creation, scale-down from the highest ordinal, the partitioned rolling update, status counts
// and the pods' identity.
import { describe, expect, it } from 'vitest'
import { type StatefulContext, statefulCounts, statefulPlan, statefulPod } from '../../src/registry/stateful-decisions'
import type { KubeObject } from '../../src/schema/meta'

const set = (spec: Record<string, unknown> = {}) =>
  ({
    metadata: { name: 'web', uid: 'u' },
    spec: {
      replicas: 3,
      serviceName: 'web',
      podManagementPolicy: 'OrderedReady',
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0 } },
      ...spec,
    },
  }) as unknown as KubeObject
const pod = (ord: number, opts: { phase?: string; ready?: boolean; deleting?: boolean; rev?: string } = {}) =>
  ({
    metadata: {
      name: `web-${ord}`,
      labels: {
        'controller-revision-hash': opts.rev ?? 'web-new',
        'statefulset.kubernetes.io/pod-name': `web-${ord}`,
        'apps.kubernetes.io/pod-index': String(ord),
      },
      ...(opts.deleting ? { deletionTimestamp: 'x' } : {}),
    },
    status: {
      phase: opts.phase ?? 'Running',
      conditions: [{ type: 'Ready', status: opts.ready === false ? 'False' : 'True' }],
    },
  }) as unknown as KubeObject
const ctx = (s: KubeObject): StatefulContext => ({
  set: s,
  currentRevision: 'web-old',
  updateRevision: 'web-new',
  available: (p) => ({ available: ((p as any).status.conditions ?? []).some((c: any) => c.status === 'True') }),
})
const plan = (s: KubeObject, pods: KubeObject[]) => statefulPlan(pods, ctx(s)).actions

describe('statefulPlan', () => {
  it('OrderedReady creates one ordinal at a time, each once the one before is Running and Ready', () => {
    expect(plan(set(), [])).toEqual([{ type: 'create', ordinal: 0, revision: 'update' }])
    expect(plan(set(), [pod(0, { phase: 'Pending', ready: false })])).toEqual([])
    expect(plan(set(), [pod(0), pod(1, { ready: false })])).toEqual([])
    expect(plan(set(), [pod(0), pod(1)])).toEqual([{ type: 'create', ordinal: 2, revision: 'update' }])
  })
  it('Parallel creates every missing ordinal at once; ordinals start where spec.ordinals says', () => {
    expect(plan(set({ podManagementPolicy: 'Parallel' }), []).map((a) => a.type === 'create' && a.ordinal)).toEqual([
      0, 1, 2,
    ])
    expect(
      plan(set({ podManagementPolicy: 'Parallel', replicas: 2, ordinals: { start: 5 } }), []).map(
        (a) => a.type === 'create' && a.ordinal,
      ),
    ).toEqual([5, 6])
  })
  it('scale down removes the highest ordinal first, one at a time, waiting while it terminates', () => {
    const s = set({ replicas: 1 })
    expect(plan(s, [pod(0), pod(1), pod(2)])).toEqual([{ type: 'delete', pod: 'web-2', reason: 'condemned' }])
    expect(plan(s, [pod(0), pod(1), pod(2, { deleting: true })])).toEqual([])
    expect(plan(s, [pod(0), pod(1)])).toEqual([{ type: 'delete', pod: 'web-1', reason: 'condemned' }])
    expect(
      plan(set({ replicas: 1, podManagementPolicy: 'Parallel' }), [pod(0), pod(1), pod(2)]).map(
        (a) => a.type === 'delete' && a.pod,
      ),
    ).toEqual(['web-2', 'web-1'])
  })
  it('a finished pod is deleted to be made again; a pod that lost its identity labels gets them back', () => {
    expect(plan(set(), [pod(0, { phase: 'Failed' })])).toEqual([{ type: 'delete', pod: 'web-0', reason: 'finished' }])
    const stripped = {
      ...pod(0),
      metadata: { name: 'web-0', labels: { 'controller-revision-hash': 'web-new' } },
    } as KubeObject
    expect(plan(set(), [stripped, pod(1), pod(2)])).toEqual([{ type: 'relabel', pod: 'web-0' }])
  })
  it('the rolling update deletes the highest ordinal at or above the partition not at the update revision', () => {
    const s = set({ updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 1 } } })
    const old = [0, 1, 2].map((o) => pod(o, { rev: 'web-old' }))
    expect(plan(s, old)).toEqual([{ type: 'delete', pod: 'web-2', reason: 'update' }])
    expect(plan(s, [old[0]!, old[1]!, pod(2)])).toEqual([{ type: 'delete', pod: 'web-1', reason: 'update' }])
    expect(plan(s, [old[0]!, old[1]!, pod(2, { ready: false })])).toEqual([])
    expect(plan(s, [old[0]!, pod(1), pod(2)])).toEqual([])
    // A pod made again below the partition gets the current revision.
    expect(plan(s, [old[1]!, old[2]!])).toEqual([{ type: 'create', ordinal: 0, revision: 'current' }])
    expect(plan(set({ updateStrategy: { type: 'OnDelete' } }), old)).toEqual([])
  })
})

describe('statefulCounts and statefulPod', () => {
  it('counts created, ready, current and updated pods; completes the rolling update once all are updated and ready', () => {
    const s = set()
    expect(statefulCounts([pod(0, { rev: 'web-old' }), pod(1), pod(2, { ready: false })], ctx(s))).toMatchObject({
      replicas: 3,
      ready: 2,
      current: 1,
      updated: 2,
      currentRevision: 'web-old',
    })
    expect(statefulCounts([pod(0), pod(1), pod(2)], ctx(s))).toMatchObject({
      current: 3,
      updated: 3,
      currentRevision: 'web-new',
    })
  })
  it('a pod has its identity, its claims as volumes and its revision', () => {
    const s = set({ selector: { matchLabels: { app: 'web' } }, volumeClaimTemplates: [{ metadata: { name: 'data' } }] })
    const p = statefulPod(
      s,
      { metadata: { labels: { app: 'web' } }, spec: { containers: [], volumes: [{ name: 'cfg', emptyDir: {} }] } },
      1,
      'web-new',
      { kind: 'StatefulSet' },
    ) as any
    expect(p.metadata).toEqual({
      name: 'web-1',
      ownerReferences: [{ kind: 'StatefulSet' }],
      labels: {
        app: 'web',
        'statefulset.kubernetes.io/pod-name': 'web-1',
        'apps.kubernetes.io/pod-index': '1',
        'controller-revision-hash': 'web-new',
      },
    })
    expect(p.spec).toEqual({
      containers: [],
      hostname: 'web-1',
      subdomain: 'web',
      volumes: [
        { name: 'data', persistentVolumeClaim: { claimName: 'data-web-1' } },
        { name: 'cfg', emptyDir: {} },
      ],
    })
  })
})
