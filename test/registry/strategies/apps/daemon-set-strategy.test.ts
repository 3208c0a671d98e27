// The apps/v1 DaemonSet strategy through the generic store, table-driven against kube's messages: v1 defaults, the
// template generation annotation, spec and update-strategy validation, the immutable selector, status validation,
// generation, and kubectl's table.
import { describe, expect, it } from 'vitest'
import { appsSetResourceRows } from '../../../../src/registry/apps-set-kinds'
import { statusDefOf } from '../../../../src/registry/status-subresource'
import { planCreate, planUpdate, type Stored } from '../../../../src/registry/store'
import type { KubeObject } from '../../../../src/schema/meta'

const def = appsSetResourceRows().find((r) => r.kind === 'DaemonSet')!
const ctx = { now: new Date('2026-01-01T00:00:00Z'), namespace: 'team' }
const ds = (spec: Record<string, unknown>, meta: Record<string, unknown> = {}): KubeObject =>
  ({
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name: 'agent', namespace: 'team', ...meta },
    spec,
  }) as KubeObject
const template = (labels: Record<string, string> | null = { app: 'agent' }, extra: Record<string, unknown> = {}) => ({
  metadata: labels ? { labels } : {},
  spec: { containers: [{ name: 'c', image: 'nginx' }], ...extra },
})
const SELECTOR = { matchLabels: { app: 'agent' } }
const create = (body: KubeObject) => planCreate(def, ctx, body, () => false)
function created(body: KubeObject): Stored {
  const r = create(body)
  if (!r.ok) throw new Error(r.status.message)
  return { object: r.value.object, rv: 5 } as Stored
}
const causes = (
  r: { ok: true } | { ok: false; status: { details?: { causes?: { field?: string; message?: string }[] } } },
) => {
  if (r.ok) throw new Error('expected a refusal')
  return (r.status.details?.causes ?? []).map((c) => `${c.field}: ${c.message}`)
}

describe('DaemonSet defaults', () => {
  it('RollingUpdate with maxUnavailable 1 and maxSurge 0, 10 revisions, template generation 1, zero status', () => {
    const { object } = created(ds({ selector: SELECTOR, template: template() }))
    const spec = object.spec as any
    expect(spec.updateStrategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } })
    expect(spec.revisionHistoryLimit).toBe(10)
    expect(spec.template.spec).toMatchObject({
      restartPolicy: 'Always',
      dnsPolicy: 'ClusterFirst',
      schedulerName: 'default-scheduler',
    })
    expect(spec.template.spec.tolerations).toBeUndefined()
    expect(object.metadata.annotations).toEqual({ 'deprecated.daemonset.template.generation': '1' })
    expect(object.metadata.generation).toBe(1)
    expect(object.status).toEqual({
      currentNumberScheduled: 0,
      numberMisscheduled: 0,
      desiredNumberScheduled: 0,
      numberReady: 0,
    })
  })

  it('OnDelete gets no rolling update parameters', () => {
    const { object } = created(ds({ selector: SELECTOR, template: template(), updateStrategy: { type: 'OnDelete' } }))
    expect((object.spec as any).updateStrategy).toEqual({ type: 'OnDelete' })
  })
})

describe('DaemonSet validation', () => {
  const mismatch =
    'spec.template.metadata.labels: Invalid value: map[string]string{"app":"agent"}: `selector` does not match template `labels`'
  const cases: [string, Record<string, unknown>, string[]][] = [
    ['no selector: a nil selector matches no template', { template: template() }, [mismatch]],
    [
      'an empty selector',
      { selector: {}, template: template() },
      [
        'spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: empty selector is invalid for daemonset',
      ],
    ],
    [
      'a selector the template labels do not match',
      { selector: { matchLabels: { app: 'other' } }, template: template() },
      [mismatch],
    ],
    [
      'restartPolicy Never and an active deadline',
      {
        selector: SELECTOR,
        template: template({ app: 'agent' }, { restartPolicy: 'Never', activeDeadlineSeconds: 5 }),
      },
      [
        'spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"',
        'spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in DaemonSet is not Supported',
      ],
    ],
    [
      'a pod spec without containers is checked like a pod',
      { selector: SELECTOR, template: { metadata: { labels: { app: 'agent' } }, spec: { containers: [] } } },
      ['spec.template.spec.containers: Required value'],
    ],
    [
      'both surge and unavailability',
      {
        selector: SELECTOR,
        template: template(),
        updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1 } },
      },
      [
        'spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: intstr.IntOrString{Type:0, IntVal:1, StrVal:""}: may not be set when maxUnavailable is non-zero',
      ],
    ],
    [
      'neither surge nor unavailability',
      {
        selector: SELECTOR,
        template: template(),
        updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '0%' } },
      },
      ['spec.updateStrategy.rollingUpdate.maxUnavailable: Required value: cannot be 0 when maxSurge is 0'],
    ],
    [
      'a bad percentage and more than 100%',
      {
        selector: SELECTOR,
        template: template(),
        updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 'x', maxSurge: '150%' } },
      },
      [
        `spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"x"}: a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')`,
        'spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"150%"}: must not be greater than 100%',
      ],
    ],
    [
      'an unknown strategy type',
      { selector: SELECTOR, template: template(), updateStrategy: { type: 'Blue' } },
      [
        'spec.updateStrategy: Unsupported value: apps.DaemonSetUpdateStrategy{Type:"Blue", RollingUpdate:(*apps.RollingUpdateDaemonSet)(nil)}: supported values: "RollingUpdate", "OnDelete"',
      ],
    ],
    [
      'negative counts',
      { selector: SELECTOR, template: template(), minReadySeconds: -1, revisionHistoryLimit: -2 },
      [
        'spec.minReadySeconds: Invalid value: -1: must be greater than or equal to 0',
        'spec.revisionHistoryLimit: Invalid value: -2: must be greater than or equal to 0',
      ],
    ],
  ]
  it.each(cases)('%s', (_, spec, want) => {
    const r = create(ds(spec))
    expect(r.ok).toBe(false)
    if (!r.ok) expect(r.status.code).toBe(422)
    expect(causes(r)).toEqual(want)
  })

  it('names are DNS subdomains; the message names the kind with its group', () => {
    const r = create(ds({ selector: SELECTOR, template: template() }, { name: 'Agent' }))
    expect(!r.ok && r.status.message).toMatch(
      /^DaemonSet\.apps "Agent" is invalid: metadata\.name: Invalid value: "Agent": a lowercase RFC 1123 subdomain/,
    )
  })
})

describe('DaemonSet updates', () => {
  it('a template change bumps generation and the template generation; the client cannot set either', () => {
    const old = created(ds({ selector: SELECTOR, template: template() }))
    const next = structuredClone(old.object) as any
    next.spec.template.spec.containers[0].image = 'nginx:2'
    next.metadata.annotations['deprecated.daemonset.template.generation'] = '9'
    const r = planUpdate(def, ctx, 'agent', next, old)
    expect(r.ok).toBe(true)
    if (!r.ok) return
    expect(r.value.object.metadata.generation).toBe(2)
    expect(r.value.object.metadata.annotations).toEqual({ 'deprecated.daemonset.template.generation': '2' })
    // A minReadySeconds change bumps the generation only.
    const stored = { object: r.value.object, rv: 6 } as Stored
    const again = structuredClone(r.value.object) as any
    again.spec.minReadySeconds = 5
    delete again.metadata.annotations
    const r2 = planUpdate(def, ctx, 'agent', again, stored)
    expect(r2.ok && r2.value.object.metadata).toMatchObject({
      generation: 3,
      annotations: { 'deprecated.daemonset.template.generation': '2' },
    })
  })

  it('the selector is immutable (errors of the spec repeated as kube repeats them)', () => {
    const old = created(ds({ selector: SELECTOR, template: template() }))
    const next = structuredClone(old.object) as any
    next.spec.selector = { matchLabels: { app: 'agent', tier: 'x' } }
    next.spec.template.metadata.labels.tier = 'x'
    const r = planUpdate(def, ctx, 'agent', next, old)
    expect(r.ok).toBe(false)
    if (r.ok) return
    expect(r.status.message).toBe(
      'DaemonSet.apps "agent" is invalid: spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"app":"agent", "tier":"x"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: field is immutable',
    )
  })

  it('status writes: counts not negative, collisionCount never decremented', () => {
    const old = created(ds({ selector: SELECTOR, template: template() }))
    ;(old.object as any).status.collisionCount = 2
    const next = structuredClone(old.object) as any
    next.status = { ...next.status, numberReady: -1, collisionCount: 1 }
    const r = planUpdate(statusDefOf(def)!, ctx, 'agent', next, old)
    expect(causes(r)).toEqual([
      'status.numberReady: Invalid value: -1: must be greater than or equal to 0',
      'status.collisionCount: Invalid value: 1: cannot be decremented',
    ])
  })

  it("kubectl's table: desired, current, ready, up-to-date, available, node selector", () => {
    const { object } = created(
      ds({ selector: SELECTOR, template: template({ app: 'agent' }, { nodeSelector: { disk: 'ssd', zone: 'a' } }) }),
    )
    ;(object as any).status = {
      desiredNumberScheduled: 3,
      currentNumberScheduled: 3,
      numberReady: 2,
      numberMisscheduled: 0,
      updatedNumberScheduled: 3,
      numberAvailable: 2,
    }
    expect(def.strategy.table.columns.map((c) => c.name)).toEqual([
      'Name',
      'Desired',
      'Current',
      'Ready',
      'Up-to-date',
      'Available',
      'Node Selector',
      'Age',
      'Containers',
      'Images',
      'Selector',
    ])
    expect(def.strategy.table.cells(object, new Date('2026-01-01T00:00:30Z'))).toEqual([
      'agent',
      3,
      3,
      2,
      3,
      2,
      'disk=ssd,zone=a',
      '30s',
      'c',
      'nginx',
      'app=agent',
    ])
  })
})
