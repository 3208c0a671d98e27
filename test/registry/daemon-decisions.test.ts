// The daemon set controller's decisions (src/registry/daemon-placement.ts, daemon-decisions.ts) as kube's
// pkg/controller/daemon makes them: which nodes run a daemon pod, manage's creates and deletes, the rolling update
// under maxUnavailable and maxSurge, and the status counts.
import { describe, expect, it } from 'vitest'
import { REVISION_HASH_LABEL } from '../../src/registry/controller-history'
import { type DaemonContext, daemonCounts, managePlan, rollingPlan } from '../../src/registry/daemon-decisions'
import { type DaemonNode, nodeShouldRunDaemonPod, targetNodeName } from '../../src/registry/daemon-placement'
import type { KubeObject } from '../../src/schema/meta'

const node = (name: string, extra: Partial<DaemonNode> = {}): DaemonNode => ({ name, labels: {}, taints: [], ...extra })
const NODES = ['n1', 'n2', 'n3'].map((n) => node(n))
const ds = (
  strategy: Record<string, unknown> = { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } },
) =>
  ({
    metadata: { name: 'ds', uid: 'u' },
    spec: { updateStrategy: strategy, template: { spec: { containers: [] } } },
  }) as unknown as KubeObject
let seq = 0
const pod = (
  nodeName: string,
  hash: string,
  opts: { ready?: boolean; phase?: string; deleting?: boolean; bound?: boolean } = {},
) =>
  ({
    metadata: {
      name: `p${seq++}`,
      creationTimestamp: `2026-01-01T00:00:${String(seq).padStart(2, '0')}Z`,
      labels: { [REVISION_HASH_LABEL]: hash },
      ...(opts.deleting ? { deletionTimestamp: '2026-01-01T00:01:00Z' } : {}),
    },
    spec:
      opts.bound === false
        ? {
            affinity: {
              nodeAffinity: {
                requiredDuringSchedulingIgnoredDuringExecution: {
                  nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [nodeName] }] }],
                },
              },
            },
          }
        : { nodeName },
    status: {
      phase: opts.phase ?? 'Running',
      conditions: [{ type: 'Ready', status: opts.ready === false ? 'False' : 'True' }],
    },
  }) as unknown as KubeObject
const ctx = (set: KubeObject, hash = 'new'): DaemonContext => ({
  ds: set,
  hash,
  templateGeneration: null,
  now: 0,
  available: (p) => ({ available: ((p as any).status.conditions ?? []).some((c: any) => c.status === 'True') }),
})

describe('nodeShouldRunDaemonPod', () => {
  const spec = (extra: Record<string, unknown> = {}) => ({ containers: [], ...extra })
  it('taints: NoSchedule keeps new pods away but lets running ones stay; NoExecute sends them away; tolerated ones pass', () => {
    expect(nodeShouldRunDaemonPod(node('a', { taints: [{ key: 'x', effect: 'NoSchedule' }] }), spec())).toEqual({
      shouldRun: false,
      shouldContinueRunning: true,
    })
    expect(nodeShouldRunDaemonPod(node('a', { taints: [{ key: 'x', effect: 'NoExecute' }] }), spec())).toEqual({
      shouldRun: false,
      shouldContinueRunning: false,
    })
    expect(
      nodeShouldRunDaemonPod(
        node('a', { taints: [{ key: 'x', effect: 'NoSchedule' }] }),
        spec({ tolerations: [{ key: 'x', operator: 'Exists' }] }),
      ).shouldRun,
    ).toBe(true)
    // The daemon tolerations: cordoned and not-ready nodes keep their daemon pods.
    const cordoned = node('a', {
      taints: [
        { key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' },
        { key: 'node.kubernetes.io/not-ready', effect: 'NoExecute' },
      ],
    })
    expect(nodeShouldRunDaemonPod(cordoned, spec()).shouldRun).toBe(true)
  })
  it('node name, selector and required affinity', () => {
    expect(nodeShouldRunDaemonPod(node('a'), spec({ nodeName: 'b' })).shouldContinueRunning).toBe(false)
    expect(
      nodeShouldRunDaemonPod(node('a', { labels: { disk: 'ssd' } }), spec({ nodeSelector: { disk: 'ssd' } })).shouldRun,
    ).toBe(true)
    expect(nodeShouldRunDaemonPod(node('a'), spec({ nodeSelector: { disk: 'ssd' } })).shouldRun).toBe(false)
    const affinity = {
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: {
          nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'In', values: ['b'] }] }],
        },
      },
    }
    expect(nodeShouldRunDaemonPod(node('a', { labels: { zone: 'b' } }), spec({ affinity })).shouldRun).toBe(true)
  })
  it('a pod is meant for its node, or the one its affinity pins it to', () => {
    expect(targetNodeName(pod('n2', 'h'))).toBe('n2')
    expect(targetNodeName(pod('n3', 'h', { bound: false }))).toBe('n3')
  })
})

describe('managePlan', () => {
  it('creates on nodes without a pod, keeps the oldest of several, replaces finished pods, drops pods of gone nodes', () => {
    const oldest = pod('n1', 'new')
    const younger = pod('n1', 'new')
    const failed = pod('n2', 'new', { phase: 'Failed' })
    const orphan = pod('gone', 'new')
    const plan = managePlan(NODES, [oldest, younger, failed, orphan], ctx(ds()))
    expect(plan.createOn).toEqual(['n3'])
    expect(plan.deletePods).toEqual([younger.metadata.name, failed.metadata.name, orphan.metadata.name])
    expect(plan.finished).toEqual([{ pod: failed.metadata.name, node: 'n2', phase: 'Failed' }])
  })
})

describe('rollingPlan', () => {
  it('maxUnavailable 1: one old available pod goes at a time, none while a new pod is not yet available', () => {
    const pods = NODES.map((n) => pod(n.name, 'old'))
    expect(rollingPlan(NODES, pods, ctx(ds())).deletePods).toEqual([pods[0]!.metadata.name])
    const mid = [pod('n1', 'new', { ready: false }), pods[1]!, pods[2]!]
    expect(rollingPlan(NODES, mid, ctx(ds())).deletePods).toEqual([])
    // An unavailable old pod is replaced whatever the budget.
    const sick = [pod('n1', 'new', { ready: false }), pod('n2', 'old', { ready: false }), pods[2]!]
    expect(rollingPlan(NODES, sick, ctx(ds())).deletePods).toEqual([sick[1]!.metadata.name])
  })
  it('maxSurge 1: a new pod beside one old one; the old one goes once the new one is available', () => {
    const surge = ds({ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: 1 } })
    const pods = NODES.map((n) => pod(n.name, 'old'))
    expect(rollingPlan(NODES, pods, ctx(surge))).toMatchObject({ createOn: ['n1'], deletePods: [] })
    const started = [...pods, pod('n1', 'new', { ready: false })]
    expect(rollingPlan(NODES, started, ctx(surge))).toMatchObject({ createOn: [], deletePods: [] })
    const up = [...pods, pod('n1', 'new')]
    expect(rollingPlan(NODES, up, ctx(surge))).toMatchObject({ createOn: ['n2'], deletePods: [pods[0]!.metadata.name] })
  })
})

describe('daemonCounts', () => {
  it('desired, current, misscheduled, ready, updated, available, unavailable', () => {
    const tainted = [...NODES, node('n4', { taints: [{ key: 'x', effect: 'NoSchedule' }] })]
    const pods = [pod('n1', 'new'), pod('n2', 'old'), pod('n4', 'new'), pod('n3', 'new', { ready: false })]
    expect(daemonCounts(tainted, pods, ctx(ds())).counts).toEqual({
      currentNumberScheduled: 3,
      numberMisscheduled: 1,
      desiredNumberScheduled: 3,
      numberReady: 2,
      updatedNumberScheduled: 2,
      numberAvailable: 2,
      numberUnavailable: 1,
    })
  })
})
