// The apps/v1 Deployment strategy through the generic store, table-driven against kube's messages: SetDefaults_Deployment,
// ValidateDeploymentSpec (selector, template, strategy and rolling-update values, counts, deadline), the immutable
// selector, generation bumps, status validation, and kubectl's table.
import { describe, expect, it } from 'vitest'
import { appsResourceRows } from '../../../../src/registry/apps-kinds'
import type { ResourceDef } from '../../../../src/registry/resource'
import { statusDefOf } from '../../../../src/registry/status-subresource'
import { planCreate, planUpdate, type Stored } from '../../../../src/registry/store'
import type { KubeObject } from '../../../../src/schema/meta'

const def = appsResourceRows().find((r) => r.kind === 'Deployment') as ResourceDef
const ctx = { now: new Date('2026-01-01T00:00:00Z'), namespace: 'team' }

const TEMPLATE = { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } }
const deployment = (spec: Record<string, unknown>): KubeObject =>
  ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'team' },
    spec: { selector: { matchLabels: { app: 'web' } }, template: TEMPLATE, ...spec },
  }) as KubeObject

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

describe('Deployment defaults', () => {
  const cases: [string, Record<string, unknown>, Record<string, unknown>][] = [
    [
      'nothing set',
      {},
      {
        replicas: 1,
        strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } },
        revisionHistoryLimit: 10,
        progressDeadlineSeconds: 600,
      },
    ],
    [
      'one rolling-update value set',
      { strategy: { rollingUpdate: { maxSurge: 2 } } },
      { strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: 2 } } },
    ],
    ['Recreate gets no rollingUpdate', { strategy: { type: 'Recreate' } }, { strategy: { type: 'Recreate' } }],
    [
      'explicit zeros stay',
      { replicas: 0, revisionHistoryLimit: 0 },
      { replicas: 0, revisionHistoryLimit: 0, progressDeadlineSeconds: 600 },
    ],
  ]
  for (const [what, spec, expected] of cases) {
    it(what, () => {
      const { object } = created(deployment(spec))
      expect(object.spec).toMatchObject(expected)
      if ((spec.strategy as any)?.type === 'Recreate')
        expect((object.spec as any).strategy.rollingUpdate).toBeUndefined()
    })
  }

  it('starts with an empty status and generation 1, and defaults the template like a pod spec', () => {
    const { object } = created(deployment({}))
    expect(object.status).toEqual({})
    expect(object.metadata.generation).toBe(1)
    expect((object.spec as any).template.spec).toMatchObject({ restartPolicy: 'Always', dnsPolicy: 'ClusterFirst' })
  })
})

describe('Deployment validation', () => {
  const IOS = (v: string) => `intstr.IntOrString{Type:1, IntVal:0, StrVal:"${v}"}`
  const cases: [string, Record<string, unknown>, string[]][] = [
    [
      'no selector',
      { selector: undefined },
      [
        'spec.selector: Required value',
        'spec.template.metadata.labels: Invalid value: map[string]string{"app":"web"}: `selector` does not match template `labels`',
      ],
    ],
    [
      'an empty selector',
      { selector: { matchLabels: {} } },
      [
        'spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: empty selector is invalid for deployment',
      ],
    ],
    [
      'maxSurge and maxUnavailable both zero',
      { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: '0%' } } },
      [`spec.strategy.rollingUpdate.maxUnavailable: Invalid value: ${IOS('0%')}: may not be 0 when \`maxSurge\` is 0`],
    ],
    [
      'a bad percentage and a negative number',
      { strategy: { rollingUpdate: { maxSurge: -1, maxUnavailable: '5x' } } },
      [
        `spec.strategy.rollingUpdate.maxUnavailable: Invalid value: ${IOS('5x')}: a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')`,
        'spec.strategy.rollingUpdate.maxSurge: Invalid value: -1: must be greater than or equal to 0',
      ],
    ],
    [
      'maxUnavailable over 100%',
      { strategy: { rollingUpdate: { maxUnavailable: '110%' } } },
      [`spec.strategy.rollingUpdate.maxUnavailable: Invalid value: ${IOS('110%')}: must not be greater than 100%`],
    ],
    [
      'rollingUpdate with Recreate',
      { strategy: { type: 'Recreate', rollingUpdate: { maxSurge: 1 } } },
      ["spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is 'Recreate'"],
    ],
    [
      'an unknown strategy type',
      { strategy: { type: 'BlueGreen' } },
      [
        'spec.strategy: Unsupported value: apps.DeploymentStrategy{Type:"BlueGreen", RollingUpdate:(*apps.RollingUpdateDeployment)(nil)}: supported values: "Recreate", "RollingUpdate"',
      ],
    ],
    [
      'negative counts',
      { replicas: -1, minReadySeconds: -1, revisionHistoryLimit: -1 },
      [
        'spec.replicas: Invalid value: -1: must be greater than or equal to 0',
        'spec.minReadySeconds: Invalid value: -1: must be greater than or equal to 0',
        'spec.revisionHistoryLimit: Invalid value: -1: must be greater than or equal to 0',
      ],
    ],
    [
      'a progress deadline not above minReadySeconds',
      { minReadySeconds: 10, progressDeadlineSeconds: 10 },
      ['spec.progressDeadlineSeconds: Invalid value: 10: must be greater than minReadySeconds'],
    ],
    [
      'a pod-specific annotation on the template, named at its template path',
      {
        template: {
          ...TEMPLATE,
          metadata: { ...TEMPLATE.metadata, annotations: { 'controller.kubernetes.io/pod-deletion-cost': 'abc' } },
        },
      },
      [
        'spec.template.annotations[controller.kubernetes.io/pod-deletion-cost]: Invalid value: "abc": must be a 32bit integer',
      ],
    ],
    [
      'a template that restarts never and has a deadline',
      { template: { ...TEMPLATE, spec: { ...TEMPLATE.spec, restartPolicy: 'OnFailure', activeDeadlineSeconds: 3 } } },
      [
        'spec.template.spec.restartPolicy: Unsupported value: "OnFailure": supported values: "Always"',
        'spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in ReplicaSet is not Supported',
      ],
    ],
  ]
  for (const [what, spec, expected] of cases) {
    it(what, () => {
      const body = deployment(spec)
      if ('selector' in spec && spec.selector === undefined) delete (body.spec as any).selector
      expect(causes(body)).toEqual(expected)
    })
  }

  it('names the kind with its group in the Invalid Status', () => {
    const r = create(deployment({ replicas: -1 }))
    if (r.ok) throw new Error('expected a refusal')
    expect(r.status.message).toBe(
      'Deployment.apps "web" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0',
    )
  })
})

describe('Deployment updates', () => {
  const update = (current: Stored, change: (o: any) => void, d: ResourceDef = def) => {
    const next = structuredClone(current.object) as any
    change(next)
    next.metadata.resourceVersion = String(current.rv)
    return planUpdate(d, ctx, 'web', next, current)
  }

  it("refuses a selector change with kube's immutable message", () => {
    const r = update(created(deployment({})), (o) => {
      o.spec.selector = { matchLabels: { app: 'web' }, matchExpressions: [{ key: 'x', operator: 'Exists' }] }
      o.spec.template.metadata.labels.x = 'y'
    })
    if (r.ok) throw new Error('expected a refusal')
    expect(r.status.details?.causes?.map((c) => `${c.field}: ${c.message}`)).toEqual([
      'spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"app":"web"}, MatchExpressions:[]v1.LabelSelectorRequirement{v1.LabelSelectorRequirement{Key:"x", Operator:"Exists", Values:[]string(nil)}}}: field is immutable',
    ])
  })

  it('bumps the generation for spec and annotation changes, not for labels', () => {
    const current = created(deployment({}))
    const gen = (change: (o: any) => void) => {
      const r = update(current, change)
      if (!r.ok) throw new Error(r.status.message)
      return r.value.object.metadata.generation
    }
    expect(gen((o) => (o.metadata.labels = { a: 'b' }))).toBe(1)
    expect(gen((o) => (o.metadata.annotations = { 'kubernetes.io/change-cause': 'x' }))).toBe(2)
    expect(gen((o) => (o.spec.paused = true))).toBe(2)
  })

  it('validates status writes (counts, availability, collisionCount never decremented)', () => {
    const current = created(deployment({}))
    const withCount = update(current, (o) => (o.status = { collisionCount: 2 }), statusDefOf(def)!)
    if (!withCount.ok) throw new Error(withCount.status.message)
    const counted = { object: withCount.value.object, rv: 6 } as Stored
    const r = update(
      counted,
      (o) => (o.status = { replicas: 1, updatedReplicas: 2, availableReplicas: 1, collisionCount: 1 }),
      statusDefOf(def)!,
    )
    if (r.ok) throw new Error('expected a refusal')
    expect(r.status.message).toContain('cannot be decremented')
    expect(r.status.details?.causes?.map((c) => `${c.field}: ${c.message}`)).toEqual([
      'status.updatedReplicas: Invalid value: 2: cannot be greater than status.replicas',
      'status.availableReplicas: Invalid value: 1: cannot be greater than readyReplicas',
      'status.collisionCount: Invalid value: 1: cannot be decremented',
    ])
  })
})

describe('Deployment table', () => {
  it('has kubectl get deploy columns: READY as ready/desired, then up-to-date and available', () => {
    const { object } = created(deployment({ replicas: 3 }))
    object.status = { readyReplicas: 2, updatedReplicas: 3, availableReplicas: 2 }
    expect(def.strategy.table.columns.map((c) => c.name)).toEqual([
      'Name',
      'Ready',
      'Up-to-date',
      'Available',
      'Age',
      'Containers',
      'Images',
      'Selector',
    ])
    expect(def.strategy.table.cells(object, new Date('2026-01-01T00:00:30Z'))).toEqual([
      'web',
      '2/3',
      3,
      2,
      '30s',
      'c',
      'nginx',
      'app=web',
    ])
  })
})
