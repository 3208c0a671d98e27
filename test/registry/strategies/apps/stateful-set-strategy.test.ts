// The apps/v1 StatefulSet and ControllerRevision strategies through the generic store, table-driven against kube's
// messages: v1 defaults (claim templates included), spec validation, the fields an update may change, status
// validation, and kubectl's tables.
import { describe, expect, it } from 'vitest'
import { appsSetResourceRows } from '../../../../src/registry/apps-set-kinds'
import { statusDefOf } from '../../../../src/registry/status-subresource'
import { planCreate, planUpdate, type Stored } from '../../../../src/registry/store'
import type { KubeObject } from '../../../../src/schema/meta'

const rows = appsSetResourceRows()
const def = rows.find((r) => r.kind === 'StatefulSet')!
const revDef = rows.find((r) => r.kind === 'ControllerRevision')!
const ctx = { now: new Date('2026-01-01T00:00:00Z'), namespace: 'team' }
const sts = (spec: Record<string, unknown>, name = 'web'): KubeObject =>
  ({ apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name, namespace: 'team' }, spec }) as KubeObject
const template = (labels: Record<string, string> = { app: 'web' }, extra: Record<string, unknown> = {}) => ({
  metadata: { labels },
  spec: { containers: [{ name: 'c', image: 'nginx' }], ...extra },
})
const SELECTOR = { matchLabels: { app: 'web' } }
const create = (d = def, body: KubeObject) => planCreate(d, ctx, body, () => false)
function created(body: KubeObject, d = def): Stored {
  const r = create(d, body)
  if (!r.ok) throw new Error(r.status.message)
  return { object: r.value.object, rv: 5 } as Stored
}
const causes = (r: { ok: boolean; status?: any }) => {
  if (r.ok) throw new Error('expected a refusal')
  return (r.status.details?.causes ?? []).map((c: any) => `${c.field}: ${c.message}`)
}

describe('StatefulSet defaults', () => {
  it('OrderedReady, RollingUpdate partition 0, Retain claims, 1 replica, serviceName "", claim templates completed', () => {
    const { object } = created(
      sts({
        selector: SELECTOR,
        template: template(),
        volumeClaimTemplates: [
          {
            metadata: { name: 'data' },
            spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
          },
        ],
      }),
    )
    const spec = object.spec as any
    expect(spec).toMatchObject({
      replicas: 1,
      podManagementPolicy: 'OrderedReady',
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0 } },
      persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Retain', whenScaled: 'Retain' },
      revisionHistoryLimit: 10,
      serviceName: '',
    })
    expect(spec.volumeClaimTemplates).toEqual([
      {
        apiVersion: 'v1',
        kind: 'PersistentVolumeClaim',
        metadata: { name: 'data' },
        spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, volumeMode: 'Filesystem' },
        status: { phase: 'Pending' },
      },
    ])
    expect(object.status).toEqual({ replicas: 0, availableReplicas: 0 })
    expect(object.metadata.generation).toBe(1)
  })

  it('a RollingUpdate given without parameters gets none; OnDelete none either', () => {
    expect(
      (
        created(sts({ selector: SELECTOR, template: template(), updateStrategy: { type: 'RollingUpdate' } })).object
          .spec as any
      ).updateStrategy,
    ).toEqual({ type: 'RollingUpdate' })
    expect(
      (
        created(sts({ selector: SELECTOR, template: template(), updateStrategy: { type: 'OnDelete' } })).object
          .spec as any
      ).updateStrategy,
    ).toEqual({ type: 'OnDelete' })
  })
})

describe('StatefulSet validation', () => {
  const cases: [string, Record<string, unknown>, string[]][] = [
    [
      'no selector',
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
        'spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: empty selector is invalid for statefulset',
      ],
    ],
    [
      'an unknown pod management policy and update strategy',
      { selector: SELECTOR, template: template(), podManagementPolicy: 'Eager', updateStrategy: { type: 'Blue' } },
      [
        `spec.podManagementPolicy: Invalid value: "Eager": must be 'OrderedReady' or 'Parallel'`,
        `spec.updateStrategy: Invalid value: apps.StatefulSetUpdateStrategy{Type:"Blue", RollingUpdate:(*apps.RollingUpdateStatefulSetStrategy)(nil)}: must be 'RollingUpdate' or 'OnDelete'`,
      ],
    ],
    [
      'OnDelete with rolling update parameters, a negative partition elsewhere',
      {
        selector: SELECTOR,
        template: template(),
        updateStrategy: { type: 'OnDelete', rollingUpdate: { partition: 2 } },
      },
      [
        `spec.updateStrategy.rollingUpdate: Invalid value: apps.RollingUpdateStatefulSetStrategy{Partition:2, MaxUnavailable:(*intstr.IntOrString)(nil)}: only allowed for updateStrategy 'RollingUpdate'`,
      ],
    ],
    [
      'a negative partition, replicas and ordinals start',
      {
        selector: SELECTOR,
        template: template(),
        replicas: -1,
        ordinals: { start: -2 },
        updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: -1 } },
      },
      [
        'spec.updateStrategy.rollingUpdate.partition: Invalid value: -1: must be greater than or equal to 0',
        'spec.replicas: Invalid value: -1: must be greater than or equal to 0',
        'spec.ordinals.start: Invalid value: -2: must be greater than or equal to 0',
      ],
    ],
    [
      'a retention policy that is neither Retain nor Delete',
      { selector: SELECTOR, template: template(), persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Keep' } },
      [
        'spec.persistentVolumeClaimRetentionPolicy.whenDeleted: Unsupported value: "Keep": supported values: "Retain", "Delete"',
      ],
    ],
    [
      'a serviceName that is not a DNS label',
      { selector: SELECTOR, template: template(), serviceName: 'My.Service' },
      [
        `spec.serviceName: Invalid value: "My.Service": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
      ],
    ],
    [
      'restartPolicy OnFailure and an active deadline; the pod spec itself is not checked',
      {
        selector: SELECTOR,
        template: template({ app: 'web' }, { restartPolicy: 'OnFailure', activeDeadlineSeconds: 3, containers: [] }),
      },
      [
        'spec.template.spec.restartPolicy: Unsupported value: "OnFailure": supported values: "Always"',
        'spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in StatefulSet is not Supported',
      ],
    ],
  ]
  it.each(cases)('%s', (_, spec, want) => {
    const r = create(def, sts(spec))
    expect(r.ok).toBe(false)
    if (!r.ok) expect(r.status.code).toBe(422)
    expect(causes(r)).toEqual(want)
  })

  it('names are DNS labels (they become pod hostnames)', () => {
    const r = create(def, sts({ selector: SELECTOR, template: template() }, 'web.v1'))
    // IsDNS1123Label: a valid subdomain that is no label has dots in it.
    expect(!r.ok && r.status.message).toBe(
      'StatefulSet.apps "web.v1" is invalid: metadata.name: Invalid value: "web.v1": must not contain dots',
    )
  })
})

describe('StatefulSet updates and status', () => {
  it('replicas, template, updateStrategy, minReadySeconds, ordinals and the retention policy may change; nothing else', () => {
    const old = created(sts({ selector: SELECTOR, template: template(), serviceName: 'web' }))
    const next = structuredClone(old.object) as any
    next.spec.replicas = 5
    next.spec.template.spec.containers[0].image = 'nginx:2'
    next.spec.updateStrategy = { type: 'RollingUpdate', rollingUpdate: { partition: 2 } }
    const ok = planUpdate(def, ctx, 'web', next, old)
    expect(ok.ok && ok.value.object.metadata.generation).toBe(2)
    const frozen = structuredClone(old.object) as any
    frozen.spec.serviceName = 'other'
    expect(causes(planUpdate(def, ctx, 'web', frozen, old))).toEqual([
      "spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
    ])
  })

  it('status writes: counts within replicas, available within ready, collisionCount never decremented', () => {
    const old = created(sts({ selector: SELECTOR, template: template() }))
    ;(old.object as any).status = { replicas: 2, availableReplicas: 0, collisionCount: 1 }
    const next = structuredClone(old.object) as any
    next.status = { replicas: 1, readyReplicas: 2, availableReplicas: 2 }
    expect(causes(planUpdate(statusDefOf(def)!, ctx, 'web', next, old))).toEqual([
      'status.readyReplicas: Invalid value: 2: cannot be greater than status.replicas',
      'status.availableReplicas: Invalid value: 2: cannot be greater than status.replicas',
      'status.collisionCount: Invalid value: 0: cannot be decremented',
    ])
  })

  it("kubectl's table: ready/replicas", () => {
    const { object } = created(sts({ selector: SELECTOR, template: template(), replicas: 3 }))
    ;(object as any).status = { replicas: 3, readyReplicas: 2, availableReplicas: 2 }
    expect(def.strategy.table.columns.map((c) => c.name)).toEqual(['Name', 'Ready', 'Age', 'Containers', 'Images'])
    expect(def.strategy.table.cells(object, new Date('2026-01-01T00:02:00Z'))).toEqual([
      'web',
      '2/3',
      '2m',
      'c',
      'nginx',
    ])
  })
})

describe('ControllerRevision strategy', () => {
  const rev = (extra: Record<string, unknown>) =>
    ({
      apiVersion: 'apps/v1',
      kind: 'ControllerRevision',
      metadata: { name: 'web-1', namespace: 'team' },
      ...extra,
    }) as KubeObject
  it('data is mandatory, revision not negative; data immutable, revision may move', () => {
    expect(causes(create(revDef, rev({ revision: -1 })))).toEqual([
      'data: Required value: data is mandatory',
      'revision: Invalid value: -1: must be greater than or equal to 0',
    ])
    const old = created(rev({ data: { spec: { template: { $patch: 'replace' } } }, revision: 1 }), revDef)
    const moved = planUpdate(revDef, ctx, 'web-1', { ...structuredClone(old.object), revision: 3 }, old)
    expect(moved.ok).toBe(true)
    const changed = planUpdate(revDef, ctx, 'web-1', { ...structuredClone(old.object), data: { a: 1 } }, old)
    expect(causes(changed)).toEqual([
      'data: Invalid value: runtime.Unknown{TypeMeta:runtime.TypeMeta{APIVersion:"", Kind:""}, Raw:[]uint8{0x7b, 0x22, 0x61, 0x22, 0x3a, 0x31, 0x7d}, ContentEncoding:"", ContentType:""}: field is immutable',
    ])
  })
  it("kubectl's table names the owning controller", () => {
    const owned = created(
      rev({
        data: {},
        revision: 2,
        metadata: {
          name: 'web-1',
          namespace: 'team',
          ownerReferences: [{ apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'web', uid: 'u', controller: true }],
        },
      }),
      revDef,
    )
    expect(revDef.strategy.table.cells(owned.object, new Date('2026-01-01T00:00:05Z'))).toEqual([
      'web-1',
      'statefulset.apps/web',
      2,
      '5s',
    ])
  })
})
