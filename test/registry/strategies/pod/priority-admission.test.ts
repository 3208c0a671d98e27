// The Priority admission plugin on pods (kube 1.33's plugin/pkg/admission/priority admitPod): a class resolves to
// priority and preemption policy, the global default stands in for no class, and its refusals word for word.
import { describe, expect, it } from 'vitest'
import { resourceByPlural } from '../../../../src/registry/resources'
import type { Result } from '../../../../src/registry/status'
import { planCreate, planUpdate } from '../../../../src/registry/store'
import type { StrategyContext } from '../../../../src/registry/strategy'
import type { KubeObject } from '../../../../src/schema/meta'

type Obj = KubeObject & Record<string, any>
const pc = (name: string, value: number, extra: Record<string, unknown> = {}) =>
  ({
    apiVersion: 'scheduling.k8s.io/v1',
    kind: 'PriorityClass',
    metadata: { name },
    value,
    preemptionPolicy: 'PreemptLowerPriority',
    ...extra,
  }) as Obj
const SYSTEM = [pc('system-node-critical', 2000001000), pc('system-cluster-critical', 2000000000)]
const ctxWith = (classes: Obj[]): StrategyContext => ({
  now: new Date('2026-01-01T00:00:00Z'),
  namespace: 'default',
  clusterObjects: (r) => (r === 'priorityclasses' ? classes : []),
})
const pod = (spec: Record<string, unknown> = {}) =>
  ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p', namespace: 'default' },
    spec: { containers: [{ name: 'c', image: 'nginx' }], ...spec },
  }) as Obj
const def = () => resourceByPlural('pods')!
const create = (body: Obj, classes: Obj[] = SYSTEM) =>
  planCreate(def(), ctxWith(classes), structuredClone(body), () => false) as Result<{ object: Obj }>
const created = (body: Obj, classes: Obj[] = SYSTEM) => {
  const r = create(body, classes)
  if (!r.ok) throw new Error(r.status.message)
  return r.value.object.spec
}
const message = (r: Result<unknown>) => (r.ok ? 'accepted' : r.status.message)

describe('Priority admission on a pod create', () => {
  it('resolves a named class to its value and preemption policy', () => {
    const spec = created(pod({ priorityClassName: 'batch' }), [
      ...SYSTEM,
      pc('batch', 50, { preemptionPolicy: 'Never' }),
    ])
    expect([spec.priorityClassName, spec.priority, spec.preemptionPolicy]).toEqual(['batch', 50, 'Never'])
    expect(created(pod({ priorityClassName: 'system-node-critical' })).priority).toBe(2000001000)
  })

  it('gives a pod naming no class the global default (the lowest if several), else 0', () => {
    const none = created(pod())
    expect([none.priorityClassName, none.priority, none.preemptionPolicy]).toEqual([
      undefined,
      0,
      'PreemptLowerPriority',
    ])
    const classes = [...SYSTEM, pc('web', 10, { globalDefault: true }), pc('batch', 5, { globalDefault: true })]
    const defaulted = created(pod(), classes)
    expect([defaulted.priorityClassName, defaulted.priority]).toEqual(['batch', 5])
  })

  it('refuses a class that does not exist (Forbidden, before validation)', () => {
    const r = create(pod({ priorityClassName: 'gold' }))
    expect(message(r)).toBe('pods "p" is forbidden: no PriorityClass with name gold was found')
    expect(!r.ok && r.status.code).toBe(403)
  })

  it('refuses a priority or preemption policy the pod sets that differs from the class', () => {
    const classes = [...SYSTEM, pc('batch', 50, { preemptionPolicy: 'Never' })]
    expect(message(create(pod({ priorityClassName: 'batch', priority: 7 }), classes))).toBe(
      'pods "p" is forbidden: the integer value of priority (7) must not be provided in pod spec; priority admission controller computed 50 from the given PriorityClass name',
    )
    expect(message(create(pod({ priority: 3 })))).toBe(
      'pods "p" is forbidden: the integer value of priority (3) must not be provided in pod spec; priority admission controller computed 0 from the given PriorityClass name',
    )
    expect(
      message(create(pod({ priorityClassName: 'batch', preemptionPolicy: 'PreemptLowerPriority' }), classes)),
    ).toBe(
      'pods "p" is forbidden: the string value of PreemptionPolicy (PreemptLowerPriority) must not be provided in pod spec; priority admission controller computed Never from the given PriorityClass name',
    )
    expect(message(create(pod({ priorityClassName: 'batch', priority: 50, preemptionPolicy: 'Never' }), classes))).toBe(
      'accepted',
    )
  })

  it('keeps what the create resolved on an update, whatever the classes are now', () => {
    const r = create(pod({ priorityClassName: 'batch' }), [...SYSTEM, pc('batch', 50)])
    if (!r.ok) throw new Error(r.status.message)
    const current = {
      object: { ...r.value.object, metadata: { ...r.value.object.metadata, resourceVersion: '3' } },
      rv: 3,
    }
    const sparse: Obj = structuredClone(current.object)
    delete sparse.spec.priority
    delete sparse.spec.preemptionPolicy
    sparse.metadata.labels = { a: 'b' }
    const u = planUpdate(def(), ctxWith(SYSTEM), 'p', sparse, current) as Result<{ object: Obj }>
    if (!u.ok) throw new Error(u.status.message)
    expect([u.value.object.spec.priority, u.value.object.spec.preemptionPolicy]).toEqual([50, 'PreemptLowerPriority'])
  })
})
