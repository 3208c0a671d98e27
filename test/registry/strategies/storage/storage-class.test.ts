// StorageClass through the pure store, table-driven against kube 1.33's storage validation: whole Status messages,
// the defaults, immutability, and the `kubectl get sc` table with its `(default)` mark.
import { describe, expect, it } from 'vitest'
import { resourceByPlural } from '../../../../src/registry/resources'
import type { Result } from '../../../../src/registry/status'
import { planCreate, planUpdate } from '../../../../src/registry/store'
import type { KubeObject } from '../../../../src/schema/meta'

type Obj = KubeObject & Record<string, any>
const ctx = { now: new Date('2026-01-01T00:00:00Z'), namespace: '' }
const def = () => resourceByPlural('storageclasses')!
const sc = (extra: Record<string, unknown> = {}, annotations?: Record<string, string>) =>
  ({
    apiVersion: 'storage.k8s.io/v1',
    kind: 'StorageClass',
    metadata: { name: 'fast', ...(annotations ? { annotations } : {}) },
    provisioner: 'example.com/ssd',
    ...extra,
  }) as Obj
const create = (body: Obj) => planCreate(def(), ctx, structuredClone(body), () => false) as Result<{ object: Obj }>
const message = (r: Result<unknown>) => (r.ok ? 'accepted' : r.status.message)
const head = 'StorageClass.storage.k8s.io "fast" is invalid: '
const term = (...reqs: [string, string[]][]) => ({
  matchLabelExpressions: reqs.map(([key, values]) => ({ key, values })),
})

describe('StorageClass validation', () => {
  const cases: [string, Obj, string][] = [
    ['a plain class', sc(), 'accepted'],
    [
      'everything set',
      sc({
        parameters: { type: 'pd-ssd' },
        reclaimPolicy: 'Retain',
        mountOptions: ['debug'],
        allowVolumeExpansion: true,
        volumeBindingMode: 'WaitForFirstConsumer',
        allowedTopologies: [term(['topology.kubernetes.io/zone', ['a', 'b']])],
      }),
      'accepted',
    ],
    ['no provisioner', sc({ provisioner: '' }), `${head}provisioner: Required value`],
    [
      'a provisioner that is not a qualified name',
      sc({ provisioner: 'Not A Name' }),
      `${head}provisioner: Invalid value: "not a name": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
    ],
    [
      'an empty parameter key',
      sc({ parameters: { '': 'x' } }),
      `${head}parameters: Invalid value: "": field can not be empty.`,
    ],
    [
      'an unknown reclaim policy',
      sc({ reclaimPolicy: 'Recycle' }),
      `${head}reclaimPolicy: Unsupported value: "Recycle": supported values: "Delete", "Retain"`,
    ],
    [
      'an unknown binding mode',
      sc({ volumeBindingMode: 'Later' }),
      `${head}volumeBindingMode: Unsupported value: "Later": supported values: "Immediate", "WaitForFirstConsumer"`,
    ],
    [
      'a topology requirement without values',
      sc({ allowedTopologies: [term(['zone', []])] }),
      `${head}allowedTopologies[0].matchLabelExpressions[0].values: Required value`,
    ],
    [
      'a repeated topology value and key',
      sc({ allowedTopologies: [term(['zone', ['a', 'a']], ['zone', ['b']])] }),
      `${head}[allowedTopologies[0].matchLabelExpressions[0].values[1]: Duplicate value: "a", allowedTopologies[0].matchLabelExpressions[1].key: Duplicate value: "zone"]`,
    ],
    [
      'the same term twice',
      sc({ allowedTopologies: [term(['zone', ['a']]), term(['zone', ['a']])] }),
      `${head}allowedTopologies[1].matchLabelExpressions: Duplicate value: ""`,
    ],
  ]
  for (const [name, body, want] of cases) it(name, () => expect(message(create(body))).toBe(want))

  it('defaults reclaimPolicy to Delete and volumeBindingMode to Immediate', () => {
    const r = create(sc())
    expect(r.ok && [r.value.object.reclaimPolicy, r.value.object.volumeBindingMode]).toEqual(['Delete', 'Immediate'])
  })
})

describe('StorageClass updates', () => {
  it('keeps provisioner, parameters, reclaimPolicy and volumeBindingMode; the rest may change', () => {
    const r = create(sc({ parameters: { type: 'ssd' } }))
    if (!r.ok) throw new Error(r.status.message)
    const current = {
      object: { ...r.value.object, metadata: { ...r.value.object.metadata, resourceVersion: '4' } },
      rv: 4,
    }
    const update = (change: Record<string, unknown>) =>
      message(planUpdate(def(), ctx, 'fast', { ...structuredClone(current.object), ...change }, current))
    expect(update({ provisioner: 'example.com/hdd' })).toBe(
      `${head}provisioner: Forbidden: updates to provisioner are forbidden.`,
    )
    expect(update({ parameters: { type: 'hdd' } })).toBe(
      `${head}parameters: Forbidden: updates to parameters are forbidden.`,
    )
    expect(update({ reclaimPolicy: 'Retain' })).toBe(
      `${head}reclaimPolicy: Forbidden: updates to reclaimPolicy are forbidden.`,
    )
    expect(update({ volumeBindingMode: 'WaitForFirstConsumer' })).toBe(
      `${head}volumeBindingMode: Invalid value: "WaitForFirstConsumer": field is immutable`,
    )
    expect(update({ allowVolumeExpansion: true, mountOptions: ['ro'] })).toBe('accepted')
  })
})

describe('StorageClass table', () => {
  it('prints kubectl get sc columns, the default marked', () => {
    const t = def().strategy.table
    expect(t.columns.map((c) => c.name)).toEqual([
      'Name',
      'Provisioner',
      'ReclaimPolicy',
      'VolumeBindingMode',
      'AllowVolumeExpansion',
      'Age',
    ])
    const plain = create(sc())
    if (!plain.ok) throw new Error(plain.status.message)
    plain.value.object.metadata.creationTimestamp = '2025-12-31T00:00:00Z'
    expect(t.cells(plain.value.object, ctx.now)).toEqual([
      'fast',
      'example.com/ssd',
      'Delete',
      'Immediate',
      false,
      '24h',
    ])
    for (const key of [
      'storageclass.kubernetes.io/is-default-class',
      'storageclass.beta.kubernetes.io/is-default-class',
    ]) {
      const marked = create(sc({}, { [key]: 'true' }))
      expect(marked.ok && t.cells(marked.value.object, ctx.now)[0]).toBe('fast (default)')
    }
    const notTrue = create(sc({}, { 'storageclass.kubernetes.io/is-default-class': 'yes' }))
    expect(notTrue.ok && t.cells(notTrue.value.object, ctx.now)[0]).toBe('fast')
  })
})
