// The policy/v1 PodDisruptionBudget strategy through the generic store, table-driven against kube's messages: the
// spec rules, status validation, generation, names as path segments, and kubectl's table.
import { describe, expect, it } from 'vitest'
import { policyResourceRows } from '../../../src/registry/policy-kinds'
import { statusDefOf } from '../../../src/registry/status-subresource'
import { planCreate, planUpdate, type Stored } from '../../../src/registry/store'
import type { KubeObject } from '../../../src/schema/meta'

const def = policyResourceRows()[0]!
const ctx = { now: new Date('2026-01-01T00:00:00Z'), namespace: 'team' }
const pdb = (spec: Record<string, unknown>, name = 'web'): KubeObject =>
  ({ apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name, namespace: 'team' }, spec }) as KubeObject
const create = (body: KubeObject) => planCreate(def, ctx, body, () => false)
function created(body: KubeObject): Stored {
  const r = create(body)
  if (!r.ok) throw new Error(r.status.message)
  return { object: r.value.object, rv: 5 } as Stored
}
const SELECTOR = { matchLabels: { app: 'web' } }

describe('PodDisruptionBudget create', () => {
  it('starts with a zero status (its counts always written), generation 1, an empty spec kept as {}', () => {
    const { object } = created(pdb({ minAvailable: 2, selector: SELECTOR }))
    expect(object.status).toEqual({ disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 })
    expect(object.metadata.generation).toBe(1)
    const bare = created({
      apiVersion: 'policy/v1',
      kind: 'PodDisruptionBudget',
      metadata: { name: 'x' },
    } as KubeObject)
    expect(bare.object.spec).toEqual({})
  })

  it('names are path segments, as the generic registry checks them', () => {
    expect(create(pdb({}, 'system:web')).ok).toBe(true)
    const r = create(pdb({}, 'a/b'))
    expect(r.ok).toBe(false)
    if (!r.ok)
      expect(r.status.message).toBe(
        `PodDisruptionBudget.policy "a/b" is invalid: metadata.name: Invalid value: "a/b": may not contain '/'`,
      )
  })
})

describe('PodDisruptionBudget validation', () => {
  const cases: [string, Record<string, unknown>, string[]][] = [
    [
      'both bounds',
      { minAvailable: 1, maxUnavailable: 1, selector: SELECTOR },
      [
        'spec: Invalid value: policy.PodDisruptionBudgetSpec{MinAvailable:(*intstr.IntOrString)(0xc000000000), Selector:(*v1.LabelSelector)(0xc000000000), MaxUnavailable:(*intstr.IntOrString)(0xc000000000), UnhealthyPodEvictionPolicy:(*policy.UnhealthyPodEvictionPolicyType)(nil)}: minAvailable and maxUnavailable cannot be both set',
      ],
    ],
    [
      'a negative minAvailable',
      { minAvailable: -1 },
      ['spec.minAvailable: Invalid value: -1: must be greater than or equal to 0'],
    ],
    [
      'a string that is not a percentage',
      { maxUnavailable: 'half' },
      [
        `spec.maxUnavailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"half"}: a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')`,
      ],
    ],
    [
      'more than 100%',
      { minAvailable: '150%' },
      [
        'spec.minAvailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"150%"}: must not be greater than 100%',
      ],
    ],
    [
      'a bad selector operator and key',
      { minAvailable: 1, selector: { matchExpressions: [{ key: 'a b', operator: 'Near' }] } },
      [
        'spec.selector.matchExpressions[0].operator: Invalid value: "Near": not a valid selector operator',
        `spec.selector.matchExpressions[0].key: Invalid value: "a b": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
      ],
    ],
    [
      'an unknown eviction policy',
      { minAvailable: 1, unhealthyPodEvictionPolicy: 'Sometimes' },
      [
        'spec.unhealthyPodEvictionPolicy: Unsupported value: "Sometimes": supported values: "AlwaysAllow", "IfHealthyBudget"',
      ],
    ],
  ]
  it.each(cases)('%s', (_, spec, want) => {
    const r = create(pdb(spec))
    expect(r.ok).toBe(false)
    if (r.ok) return
    expect(r.status.code).toBe(422)
    expect((r.status.details?.causes ?? []).map((c) => `${c.field}: ${c.message}`)).toEqual(want)
  })

  it('percentages, zero and AlwaysAllow are fine', () => {
    for (const spec of [
      { minAvailable: '50%' },
      { maxUnavailable: 0 },
      { maxUnavailable: '100%', unhealthyPodEvictionPolicy: 'AlwaysAllow' },
    ])
      expect(create(pdb({ ...spec, selector: SELECTOR })).ok).toBe(true)
  })
})

describe('PodDisruptionBudget update and status', () => {
  it('a spec change bumps the generation and keeps the status; a label change does not', () => {
    const old = created(pdb({ minAvailable: 1, selector: SELECTOR }))
    ;(old.object as any).status = {
      disruptionsAllowed: 1,
      currentHealthy: 2,
      desiredHealthy: 1,
      expectedPods: 2,
      observedGeneration: 1,
    }
    const next = structuredClone(old.object) as any
    next.spec.minAvailable = 2
    next.status = { disruptionsAllowed: 9, currentHealthy: 9, desiredHealthy: 9, expectedPods: 9 }
    const r = planUpdate(def, ctx, 'web', next, old)
    expect(r.ok).toBe(true)
    if (!r.ok) return
    expect(r.value.object.metadata.generation).toBe(2)
    expect((r.value.object as any).status.disruptionsAllowed).toBe(1)
    const labelled = structuredClone(old.object) as any
    labelled.metadata.labels = { x: 'y' }
    const l = planUpdate(def, ctx, 'web', labelled, old)
    expect(l.ok && l.value.object.metadata.generation).toBe(1)
  })

  it('status writes: negative counts and bad conditions are refused with kube messages', () => {
    const old = created(pdb({ minAvailable: 1, selector: SELECTOR }))
    const status = statusDefOf(def)!
    const next = structuredClone(old.object) as any
    next.status = {
      disruptionsAllowed: -1,
      currentHealthy: 0,
      desiredHealthy: 0,
      expectedPods: 0,
      conditions: [
        {
          type: 'DisruptionAllowed',
          status: 'Maybe',
          reason: 'bad reason',
          message: '',
          lastTransitionTime: '2026-01-01T00:00:00Z',
        },
        { type: 'DisruptionAllowed', status: 'True', reason: 'Ok', message: '' },
      ],
    }
    const r = planUpdate(status, ctx, 'web', next, old)
    expect(r.ok).toBe(false)
    if (r.ok) return
    expect((r.status.details?.causes ?? []).map((c) => `${c.field}: ${c.message}`)).toEqual([
      'status.conditions[0].status: Unsupported value: "Maybe": supported values: "False", "True", "Unknown"',
      `status.conditions[0].reason: Invalid value: "bad reason": a condition reason must start with alphabetic character, optionally followed by a string of alphanumeric characters or '_,:', and must end with an alphanumeric character or '_' (e.g. 'my_name',  or 'MY_NAME',  or 'MyName',  or 'ReasonA,ReasonB',  or 'ReasonA:ReasonB', regex used for validation is '[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?')`,
      'status.conditions[1].type: Duplicate value: "DisruptionAllowed"',
      'status.conditions[1].lastTransitionTime: Required value: must be set',
      'status.disruptionsAllowed: Invalid value: -1: must be greater than or equal to 0',
    ])
  })

  it("kubectl's table: bounds as written or N/A, allowed disruptions", () => {
    const { object } = created(pdb({ minAvailable: '50%', selector: SELECTOR }))
    expect(def.strategy.table.columns.map((c) => c.name)).toEqual([
      'Name',
      'Min Available',
      'Max Unavailable',
      'Allowed Disruptions',
      'Age',
    ])
    expect(def.strategy.table.cells(object, new Date('2026-01-01T00:05:00Z'))).toEqual(['web', '50%', 'N/A', 0, '5m'])
  })
})
