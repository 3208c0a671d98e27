// LimitRange and ResourceQuota strategies through the pure store, against kube 1.33's ValidateLimitRange,
// ValidateResourceQuota and its updates (pkg/apis/core/validation): whole Status messages; the quota table's cells.
import { describe, expect, it } from 'vitest'
import { resourceByPlural } from '../../../../src/registry/resources'
import type { Result, Status } from '../../../../src/registry/status'
import { planCreate, planUpdate, type Stored } from '../../../../src/registry/store'
import type { KubeObject } from '../../../../src/schema/meta'

const ctx = { now: new Date('2026-01-01T00:00:00Z'), namespace: 'default' }

const lr = (limits: unknown[]) =>
  ({
    apiVersion: 'v1',
    kind: 'LimitRange',
    metadata: { name: 'l', namespace: 'default' },
    spec: { limits },
  }) as KubeObject
const rq = (spec: Record<string, unknown>) =>
  ({ apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'q', namespace: 'default' }, spec }) as KubeObject

function create(plural: string, body: KubeObject): Result<{ object: KubeObject }> {
  return planCreate(resourceByPlural(plural)!, ctx, structuredClone(body), () => false) as Result<{
    object: KubeObject
  }>
}
function stored(plural: string, body: KubeObject): Stored {
  const r = create(plural, body)
  if (!r.ok) throw new Error(r.status.message)
  r.value.object.metadata.resourceVersion = '5'
  return { rv: 5, object: r.value.object }
}
const message = (r: Result<unknown>): string | null => (r.ok ? null : ((r.status as Status).message ?? null))

describe('LimitRange validation (ValidateLimitRange)', () => {
  const cases: [string, KubeObject, string | null][] = [
    [
      'a container item with defaults inside its bounds',
      lr([
        {
          type: 'Container',
          max: { cpu: '2' },
          min: { cpu: '100m' },
          default: { cpu: '1' },
          defaultRequest: { cpu: '500m' },
        },
      ]),
      null,
    ],
    [
      'an unknown type',
      lr([{ type: 'Widget' }]),
      'LimitRange "l" is invalid: spec.limits[0].type: Invalid value: "Widget": must be a standard limit type or fully qualified',
    ],
    [
      'a type twice',
      lr([{ type: 'Pod' }, { type: 'Pod' }]),
      'LimitRange "l" is invalid: spec.limits[1].type: Duplicate value: "Pod"',
    ],
    [
      'defaults on a Pod item',
      lr([{ type: 'Pod', default: { cpu: '1' } }]),
      'LimitRange "l" is invalid: spec.limits[0].default: Forbidden: may not be specified when `type` is \'Pod\'',
    ],
    [
      'min above max',
      lr([{ type: 'Container', min: { cpu: '2' }, max: { cpu: '1' } }]),
      // kube defaults before it validates: default and defaultRequest come from max (SetDefaults_LimitRangeItem).
      'LimitRange "l" is invalid: [spec.limits[0].min[cpu]: Invalid value: 2: min value 2 is greater than max value 1, spec.limits[0].defaultRequest[cpu]: Invalid value: 1: min value 2 is greater than default request value 1, spec.limits[0].default[cpu]: Invalid value: 2: min value 2 is greater than default value 1]',
    ],
    [
      'a default above max',
      lr([{ type: 'Container', max: { memory: '1Gi' }, default: { memory: '2Gi' } }]),
      'LimitRange "l" is invalid: [spec.limits[0].defaultRequest[memory]: Invalid value: 2Gi: default request value 2Gi is greater than max value 1Gi, spec.limits[0].default[memory]: Invalid value: 1Gi: default value 2Gi is greater than max value 1Gi]',
    ],
    [
      'a default request above the default',
      lr([{ type: 'Container', default: { cpu: '100m' }, defaultRequest: { cpu: '200m' } }]),
      'LimitRange "l" is invalid: spec.limits[0].defaultRequest[cpu]: Invalid value: 200m: default request value 200m is greater than default limit value 100m',
    ],
    [
      'a ratio below 1',
      lr([{ type: 'Container', maxLimitRequestRatio: { cpu: '500m' } }]),
      'LimitRange "l" is invalid: spec.limits[0].maxLimitRequestRatio[cpu]: Invalid value: 500m: ratio 500m is less than 1',
    ],
    [
      'a claim item without storage bounds',
      lr([{ type: 'PersistentVolumeClaim', max: { cpu: '1' } }]),
      'LimitRange "l" is invalid: spec.limits[0].limits: Required value: either minimum or maximum storage value is required, but neither was provided',
    ],
    [
      'a resource containers do not have',
      lr([{ type: 'Container', max: { storage: '1Gi' } }]),
      'LimitRange "l" is invalid: [spec.limits[0].max[storage]: Invalid value: "storage": must be a standard resource for containers, spec.limits[0].default[storage]: Invalid value: "storage": must be a standard resource for containers, spec.limits[0].defaultRequest[storage]: Invalid value: "storage": must be a standard resource for containers]',
    ],
  ]
  it.each(cases)('%s', (_name, body, expected) => {
    expect(message(create('limitranges', body))).toBe(expected)
  })

  it('writes a spec without limits as limits: null', () => {
    const r = create('limitranges', { apiVersion: 'v1', kind: 'LimitRange', metadata: { name: 'l' } } as KubeObject)
    expect(r.ok && r.value.object.spec).toEqual({ limits: null })
  })

  it("defaults a Container item's default from max and its defaultRequest from default, then min (SetDefaults_LimitRangeItem)", () => {
    const r = create('limitranges', {
      apiVersion: 'v1',
      kind: 'LimitRange',
      metadata: { name: 'd' },
      spec: {
        limits: [
          { type: 'Container', max: { cpu: '1', memory: '1Gi' }, min: { memory: '10Mi' }, default: { memory: '64Mi' } },
          { type: 'Pod', max: { cpu: '2' } },
        ],
      },
    } as KubeObject)
    expect(r.ok, r.ok ? '' : r.status.message).toBe(true)
    const limits = (r.ok && (r.value.object.spec as { limits: unknown[] }).limits) || []
    // default: max where none is given; defaultRequest: default, then min (a default limit wins over the min).
    expect(limits[0]).toMatchObject({
      default: { cpu: '1', memory: '64Mi' },
      defaultRequest: { cpu: '1', memory: '64Mi' },
    })
    expect(limits[1]).not.toHaveProperty('default')
    expect(limits[1]).not.toHaveProperty('defaultRequest')
  })
})

describe('ResourceQuota validation (ValidateResourceQuota)', () => {
  const cases: [string, KubeObject, string | null][] = [
    ['counts and compute', rq({ hard: { pods: '10', 'requests.cpu': '1', 'count/deployments.apps': '2' } }), null],
    [
      'an unknown resource',
      rq({ hard: { widgets: '1' } }),
      'ResourceQuota "q" is invalid: [spec.hard[widgets]: Invalid value: "widgets": must be a standard resource type or fully qualified, spec.hard[widgets]: Invalid value: "widgets": must be a standard resource for quota]',
    ],
    [
      'a fraction of a pod',
      rq({ hard: { pods: '1500m' } }),
      'ResourceQuota "q" is invalid: spec.hard[pods]: Invalid value: 1500m: must be an integer',
    ],
    [
      'a negative amount',
      rq({ hard: { 'requests.cpu': '-1' } }),
      'ResourceQuota "q" is invalid: spec.hard[requests.cpu]: Invalid value: "-1": must be greater than or equal to 0',
    ],
    [
      'a scope that does not apply to the resource',
      rq({ hard: { secrets: '1' }, scopes: ['BestEffort'] }),
      'ResourceQuota "q" is invalid: spec.scopes: Invalid value: []core.ResourceQuotaScope{"BestEffort"}: unsupported scope applied to resource',
    ],
    [
      'conflicting scopes',
      rq({ hard: { pods: '1' }, scopes: ['Terminating', 'NotTerminating'] }),
      'ResourceQuota "q" is invalid: spec.scopes: Invalid value: []core.ResourceQuotaScope{"Terminating", "NotTerminating"}: conflicting scopes',
    ],
    [
      'a selector operator that is not Exists for BestEffort',
      rq({
        hard: { pods: '1' },
        scopeSelector: { matchExpressions: [{ scopeName: 'BestEffort', operator: 'In', values: ['x'] }] },
      }),
      'ResourceQuota "q" is invalid: spec.scopeSelector.matchExpressions.operator: Invalid value: "In": must be \'Exists\' when scope is any of ResourceQuotaScopeTerminating, ResourceQuotaScopeNotTerminating, ResourceQuotaScopeBestEffort, ResourceQuotaScopeNotBestEffort or ResourceQuotaScopeCrossNamespacePodAffinity',
    ],
    [
      'In without values',
      rq({
        hard: { pods: '1' },
        scopeSelector: { matchExpressions: [{ scopeName: 'PriorityClass', operator: 'In' }] },
      }),
      "ResourceQuota \"q\" is invalid: spec.scopeSelector.matchExpressions.values: Required value: must be at least one value when `operator` is 'In' or 'NotIn' for scope selector",
    ],
  ]
  it.each(cases)('%s', (_name, body, expected) => {
    expect(message(create('resourcequotas', body))).toBe(expected)
  })

  it('starts with an empty status and keeps it on spec writes; scopes are immutable', () => {
    const body = rq({ hard: { pods: '2' }, scopes: ['NotBestEffort'] })
    const created = create('resourcequotas', { ...body, status: { used: { pods: '9' } } } as KubeObject)
    expect(created.ok && created.value.object.status).toEqual({})
    const current = stored('resourcequotas', body)
    current.object.status = { hard: { pods: '2' }, used: { pods: '1' } }
    const next = {
      ...structuredClone(current.object),
      spec: { hard: { pods: '3' }, scopes: ['NotBestEffort'] },
      status: {},
    }
    const r = planUpdate(resourceByPlural('resourcequotas')!, ctx, 'q', next as KubeObject, current)
    expect(r.ok && (r.value.object as KubeObject).status).toEqual({ hard: { pods: '2' }, used: { pods: '1' } })
    const rescoped = { ...structuredClone(current.object), spec: { hard: { pods: '2' }, scopes: ['BestEffort'] } }
    expect(message(planUpdate(resourceByPlural('resourcequotas')!, ctx, 'q', rescoped as KubeObject, current))).toBe(
      'ResourceQuota "q" is invalid: spec.scopes: Invalid value: []core.ResourceQuotaScope{"BestEffort"}: field is immutable',
    )
  })

  it('prints REQUEST and LIMIT as kubectl get quota shows them', () => {
    const def = resourceByPlural('resourcequotas')!
    const obj = {
      ...rq({}),
      metadata: { name: 'q', creationTimestamp: '2025-12-31T23:00:00Z' },
      status: {
        hard: { pods: '10', 'requests.cpu': '1', 'limits.memory': '1Gi' },
        used: { pods: '1', 'requests.cpu': '100m' },
      },
    } as KubeObject
    expect(def.strategy.table.cells(obj, ctx.now)).toEqual([
      'q',
      '60m',
      'pods: 1/10, requests.cpu: 100m/1',
      'limits.memory: 0/1Gi',
    ])
  })
})
