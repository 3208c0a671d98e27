// PriorityClass through the pure store, table-driven against kube 1.33's scheduling validation and the Priority
// plugin's PriorityClass check: whole Status messages, the default policy, immutability, the one global default,
// the system classes' protection, the table.
import { describe, expect, it } from 'vitest'
import { resourceByPlural } from '../../../../src/registry/resources'
import type { Result } from '../../../../src/registry/status'
import { planCreate, planUpdate } from '../../../../src/registry/store'
import { planDelete } from '../../../../src/registry/store-delete'
import type { StrategyContext } from '../../../../src/registry/strategy'
import type { KubeObject } from '../../../../src/schema/meta'

type Obj = KubeObject & Record<string, any>
const def = () => resourceByPlural('priorityclasses')!
const ctxWith = (classes: Obj[] = []): StrategyContext => ({
  now: new Date('2026-01-01T00:00:00Z'),
  namespace: '',
  clusterObjects: (r) => (r === 'priorityclasses' ? classes : []),
})
const pc = (name: string, value: number, extra: Record<string, unknown> = {}) =>
  ({ apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name }, value, ...extra }) as Obj
const create = (body: Obj, classes: Obj[] = []) =>
  planCreate(def(), ctxWith(classes), structuredClone(body), () => false) as Result<{ object: Obj }>
const message = (r: Result<unknown>) => (r.ok ? 'accepted' : r.status.message)
const stored = (o: Obj) => ({ object: { ...o, metadata: { ...o.metadata, resourceVersion: '7' } } as Obj, rv: 7 })
const made = (body: Obj) => {
  const r = create(body)
  if (!r.ok) throw new Error(r.status.message)
  return stored(r.value.object)
}

describe('PriorityClass validation', () => {
  const invalid = (name: string) => `PriorityClass.scheduling.k8s.io "${name}" is invalid: `
  const cases: [string, Obj, string][] = [
    ['a user class', pc('high', 1000), 'accepted'],
    ['a negative value', pc('low', -5), 'accepted'],
    ['the user ceiling', pc('top', 1000000000), 'accepted'],
    [
      'above the user ceiling',
      pc('too-high', 1000000001),
      `${invalid('too-high')}value: Forbidden: maximum allowed value of a user defined priority is 1000000000`,
    ],
    [
      'a system- name nobody reserved',
      pc('system-mine', 10),
      `${invalid('system-mine')}metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: system-mine is not a known system priority class`,
    ],
    [
      'a system class with another value',
      pc('system-node-critical', 10),
      `${invalid('system-node-critical')}metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: value of system-node-critical PriorityClass must be 2000001000`,
    ],
    [
      'a system class as the global default',
      pc('system-cluster-critical', 2000000000, { globalDefault: true }),
      `${invalid('system-cluster-critical')}metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: globalDefault of system-cluster-critical PriorityClass must be false`,
    ],
    ['a system class as kube makes it', pc('system-cluster-critical', 2000000000), 'accepted'],
    [
      'an unknown preemption policy',
      pc('p', 1, { preemptionPolicy: 'Sometimes' }),
      `${invalid('p')}preemptionPolicy: Unsupported value: "Sometimes": supported values: "PreemptLowerPriority", "Never"`,
    ],
    [
      'an empty preemption policy',
      pc('p', 1, { preemptionPolicy: '' }),
      `${invalid('p')}preemptionPolicy: Required value`,
    ],
  ]
  for (const [name, body, want] of cases) it(name, () => expect(message(create(body))).toBe(want))

  it('defaults the preemption policy to PreemptLowerPriority', () => {
    const r = create(pc('d', 1))
    expect(r.ok && r.value.object.preemptionPolicy).toBe('PreemptLowerPriority')
    const never = create(pc('n', 1, { preemptionPolicy: 'Never' }))
    expect(never.ok && never.value.object.preemptionPolicy).toBe('Never')
  })
})

describe('PriorityClass updates', () => {
  it('keeps value and preemptionPolicy immutable, the rest mutable', () => {
    const current = made(pc('high', 1000))
    const head = 'PriorityClass.scheduling.k8s.io "high" is invalid: '
    const revalued = { ...structuredClone(current.object), value: 2000 }
    expect(message(planUpdate(def(), ctxWith(), 'high', revalued, current))).toBe(
      `${head}value: Forbidden: may not be changed in an update.`,
    )
    const repolicied = { ...structuredClone(current.object), preemptionPolicy: 'Never' }
    expect(message(planUpdate(def(), ctxWith(), 'high', repolicied, current))).toBe(
      `${head}preemptionPolicy: Invalid value: "Never": field is immutable`,
    )
    const described = { ...structuredClone(current.object), description: 'for the web tier', globalDefault: true }
    expect(message(planUpdate(def(), ctxWith(), 'high', described, current))).toBe('accepted')
  })
})

describe('the Priority plugin: one global default', () => {
  const existing = pc('default-one', 100, { globalDefault: true })
  it('refuses a second default on create, and marking another class default', () => {
    expect(message(create(pc('two', 200, { globalDefault: true }), [existing]))).toBe(
      'priorityclasses.scheduling.k8s.io "two" is forbidden: PriorityClass default-one is already marked as default. Only one default can exist',
    )
    const other = made(pc('other', 5))
    const marked = { ...structuredClone(other.object), globalDefault: true }
    expect(message(planUpdate(def(), ctxWith([existing, other.object]), 'other', marked, other))).toBe(
      'priorityclasses.scheduling.k8s.io "other" is forbidden: PriorityClass default-one is already marked as default. Only one default can exist',
    )
  })
  it('lets the default itself be updated, and a default be made where there is none', () => {
    const current = made(pc('default-one', 100, { globalDefault: true }))
    const relabelled = { ...structuredClone(current.object), description: 'still the default' }
    expect(message(planUpdate(def(), ctxWith([current.object]), 'default-one', relabelled, current))).toBe('accepted')
    expect(message(create(pc('first', 1, { globalDefault: true }), [pc('plain', 3)]))).toBe('accepted')
  })
})

describe('system PriorityClasses', () => {
  it('cannot be deleted; user classes can', () => {
    const system = made(pc('system-node-critical', 2000001000))
    expect(message(planDelete(def(), ctxWith(), 'system-node-critical', system, {}))).toBe(
      'priorityclasses.scheduling.k8s.io "system-node-critical" is forbidden: this is a system priority class and cannot be deleted',
    )
    const user = made(pc('high', 1000))
    expect(planDelete(def(), ctxWith(), 'high', user, {}).ok).toBe(true)
  })
})

describe('PriorityClass table', () => {
  it('prints kubectl get priorityclass columns', () => {
    const t = def().strategy.table
    expect(t.columns.map((c) => [c.name, c.type, c.priority])).toEqual([
      ['Name', 'string', 0],
      ['Value', 'integer', 0],
      ['Global-Default', 'boolean', 0],
      ['Age', 'string', 0],
      ['PreemptionPolicy', 'string', 0],
    ])
    const r = create(pc('high', 1000, { globalDefault: true }))
    if (!r.ok) throw new Error(r.status.message)
    r.value.object.metadata.creationTimestamp = '2025-12-31T23:59:00Z'
    expect(t.cells(r.value.object, new Date('2026-01-01T00:00:00Z'))).toEqual([
      'high',
      1000,
      true,
      '60s',
      'PreemptLowerPriority',
    ])
  })
})
