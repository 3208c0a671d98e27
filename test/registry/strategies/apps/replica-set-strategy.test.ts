// The apps/v1 ReplicaSet strategy through the generic store, table-driven against kube's messages: defaults, spec and
// selector validation, the immutable selector, status validation, generation, and kubectl's table.
import { describe, expect, it } from 'vitest'
import { appsResourceRows } from '../../../../src/registry/apps-kinds'
import type { ResourceDef } from '../../../../src/registry/resource'
import { statusDefOf } from '../../../../src/registry/status-subresource'
import { planCreate, planUpdate, type Stored } from '../../../../src/registry/store'
import type { KubeObject } from '../../../../src/schema/meta'

const def = appsResourceRows().find((r) => r.kind === 'ReplicaSet') as ResourceDef
const ctx = { now: new Date('2026-01-01T00:00:00Z'), namespace: 'team' }

const rs = (spec: Record<string, unknown>, name = 'web'): KubeObject =>
  ({ apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name, namespace: 'team' }, spec }) as KubeObject
const template = (labels: Record<string, string> | null = { app: 'web' }, extra: Record<string, unknown> = {}) => ({
  metadata: labels ? { labels } : {},
  spec: { containers: [{ name: 'c', image: 'nginx' }], ...extra },
})

const create = (body: KubeObject) => planCreate(def, ctx, body, () => false)
function created(body: KubeObject): Stored {
  const r = create(body)
  if (!r.ok) throw new Error(r.status.message)
  return { object: r.value.object, rv: 5 } as Stored
}
const causes = (body: KubeObject) => {
  const r = create(body)
  if (r.ok) throw new Error('expected a refusal')
  return (r.status.details?.causes ?? []).map((c) => `${c.field}: ${c.message}`)
}

describe('ReplicaSet defaults', () => {
  it('defaults replicas to 1 and the template spec as a pod spec, keeping pod-only defaults off', () => {
    const { object } = created(rs({ selector: { matchLabels: { app: 'web' } }, template: template() }))
    const spec = object.spec as any
    expect(spec.replicas).toBe(1)
    expect(spec.template.spec).toMatchObject({
      restartPolicy: 'Always',
      dnsPolicy: 'ClusterFirst',
      terminationGracePeriodSeconds: 30,
      schedulerName: 'default-scheduler',
      securityContext: {},
    })
    expect(spec.template.spec.serviceAccountName).toBeUndefined()
    // apps/v1 does not default the labels from the template (extensions/v1beta1 did).
    expect(object.metadata.labels).toBeUndefined()
    expect(object.status).toEqual({ replicas: 0 })
    expect(object.metadata.generation).toBe(1)
  })
})

describe('ReplicaSet validation', () => {
  const cases: [string, Record<string, unknown>, string[]][] = [
    [
      'no selector: required, and a nil selector matches no template',
      { template: template() },
      [
        'spec.selector: Required value',
        'spec.template.metadata.labels: Invalid value: map[string]string{"app":"web"}: `selector` does not match template `labels`',
      ],
    ],
    [
      'an empty selector',
      { selector: {}, template: template() },
      [
        'spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: empty selector is invalid for deployment',
      ],
    ],
    [
      'a selector the template labels do not match',
      { selector: { matchExpressions: [{ key: 'tier', operator: 'In', values: ['a', 'b'] }] }, template: template() },
      [
        'spec.template.metadata.labels: Invalid value: map[string]string{"app":"web"}: `selector` does not match template `labels`',
      ],
    ],
    [
      'a template without labels',
      { selector: { matchLabels: { app: 'web' } }, template: template(null) },
      [
        'spec.template.metadata.labels: Invalid value: map[string]string(nil): `selector` does not match template `labels`',
      ],
    ],
    [
      'a bad operator: invalid selector, template unchecked',
      { selector: { matchExpressions: [{ key: 'app', operator: 'Near' }] }, template: template() },
      [
        'spec.selector.matchExpressions[0].operator: Invalid value: "Near": not a valid selector operator',
        'spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement{v1.LabelSelectorRequirement{Key:"app", Operator:"Near", Values:[]string(nil)}}}: invalid label selector',
      ],
    ],
    [
      'negative counts, restartPolicy and activeDeadlineSeconds',
      {
        replicas: -1,
        minReadySeconds: -2,
        selector: { matchLabels: { app: 'web' } },
        template: template({ app: 'web' }, { restartPolicy: 'Never', activeDeadlineSeconds: 5 }),
      },
      [
        'spec.replicas: Invalid value: -1: must be greater than or equal to 0',
        'spec.minReadySeconds: Invalid value: -2: must be greater than or equal to 0',
        'spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"',
        'spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in ReplicaSet is not Supported',
      ],
    ],
    [
      'no template: the zero template fails on its pod spec',
      { selector: { matchLabels: { app: 'web' } } },
      [
        'spec.template.metadata.labels: Invalid value: map[string]string(nil): `selector` does not match template `labels`',
        'spec.template.spec.containers: Required value',
        'spec.template.spec.restartPolicy: Unsupported value: "": supported values: "Always"',
      ],
    ],
  ]
  for (const [what, spec, expected] of cases) {
    it(what, () => {
      const got = causes(rs(spec))
      for (const e of expected) expect(got).toContain(e)
    })
  }

  it('answers one Invalid Status naming the kind with its group', () => {
    const r = create(rs({ replicas: -1, selector: { matchLabels: { app: 'web' } }, template: template() }))
    expect(r.ok).toBe(false)
    if (r.ok) return
    expect(r.status.code).toBe(422)
    expect(r.status.message).toBe(
      'ReplicaSet.apps "web" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0',
    )
    expect(r.status.details).toMatchObject({ name: 'web', group: 'apps', kind: 'ReplicaSet' })
  })
})

describe('ReplicaSet updates', () => {
  const base = () => created(rs({ replicas: 1, selector: { matchLabels: { app: 'web' } }, template: template() }))

  it('refuses a selector change (apps/v1), repeating spec causes as kube does', () => {
    const current = base()
    const next = structuredClone(current.object) as any
    next.spec.selector = { matchLabels: { app: 'web', tier: 'x' } }
    next.spec.template.metadata.labels.tier = 'x'
    next.metadata.resourceVersion = '5'
    const r = planUpdate(def, ctx, 'web', next, current)
    expect(r.ok).toBe(false)
    if (r.ok) return
    expect(r.status.message).toContain(
      'spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"app":"web", "tier":"x"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: field is immutable',
    )
  })

  it('bumps the generation on spec changes only and keeps status', () => {
    const current = base()
    const labelled = structuredClone(current.object) as any
    labelled.metadata.labels = { x: 'y' }
    labelled.status = { replicas: 7 }
    labelled.metadata.resourceVersion = '5'
    const a = planUpdate(def, ctx, 'web', labelled, current)
    if (!a.ok) throw new Error(a.status.message)
    expect(a.value.object.metadata.generation).toBe(1)
    expect(a.value.object.status).toEqual({ replicas: 0 })
    const scaled = structuredClone(current.object) as any
    scaled.spec.replicas = 3
    scaled.metadata.resourceVersion = '5'
    const b = planUpdate(def, ctx, 'web', scaled, current)
    if (!b.ok) throw new Error(b.status.message)
    expect(b.value.object.metadata.generation).toBe(2)
  })

  it('validates status writes as ValidateReplicaSetStatus does', () => {
    const current = base()
    const next = structuredClone(current.object) as any
    next.status = { replicas: 1, readyReplicas: 2, availableReplicas: 3, observedGeneration: -1 }
    next.metadata.resourceVersion = '5'
    const r = planUpdate(statusDefOf(def)!, ctx, 'web', next, current)
    expect(r.ok).toBe(false)
    if (r.ok) return
    expect((r.status.details?.causes ?? []).map((c) => `${c.field}: ${c.message}`)).toEqual([
      'status.observedGeneration: Invalid value: -1: must be greater than or equal to 0',
      'status.readyReplicas: Invalid value: 2: cannot be greater than status.replicas',
      'status.availableReplicas: Invalid value: 3: cannot be greater than status.replicas',
      'status.availableReplicas: Invalid value: 3: cannot be greater than readyReplicas',
    ])
  })
})

describe('ReplicaSet table', () => {
  it('has kubectl get rs columns and cells, the selector in its String() form', () => {
    const { object } = created(
      rs({
        replicas: 2,
        selector: {
          matchLabels: { app: 'web' },
          matchExpressions: [{ key: 'tier', operator: 'NotIn', values: ['x'] }],
        },
        template: template(),
      }),
    )
    expect(def.strategy.table.columns.map((c) => c.name)).toEqual([
      'Name',
      'Desired',
      'Current',
      'Ready',
      'Age',
      'Containers',
      'Images',
      'Selector',
    ])
    const cells = def.strategy.table.cells(object, new Date('2026-01-01T00:05:00Z'))
    expect(cells).toEqual(['web', 2, 0, 0, '5m', 'c', 'nginx', 'app=web,tier notin (x)'])
  })
})
