// PersistentVolume and PersistentVolumeClaim strategies through the pure store, table-driven against kube 1.33's
// ValidatePersistentVolume(Spec), ValidatePersistentVolumeClaim(Spec) and their updates: whole Status messages,
// defaults, the status each gets on create, tables.
import { describe, expect, it } from 'vitest'
import { resourceByPlural } from '../../../../src/registry/resources'
import type { Result, Status } from '../../../../src/registry/status'
import { statusDefOf } from '../../../../src/registry/status-subresource'
import { planCreate, planUpdate, type Stored } from '../../../../src/registry/store'
import type { KubeObject } from '../../../../src/schema/meta'

const ctx = { now: new Date('2026-01-01T00:00:00Z'), namespace: 'default' }
const pv = (spec: Record<string, unknown>) =>
  ({ apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name: 'v' }, spec }) as KubeObject
const pvc = (spec: Record<string, unknown>) =>
  ({
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: { name: 'c', namespace: 'default' },
    spec,
  }) as KubeObject
const goodPV = {
  capacity: { storage: '5Gi' },
  accessModes: ['ReadWriteOnce'],
  nfs: { server: 'nfs.local', path: '/exports' },
}
const goodPVC = { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } }

function create(plural: string, body: KubeObject, namespace = 'default'): Result<{ object: KubeObject }> {
  return planCreate(resourceByPlural(plural)!, { ...ctx, namespace }, structuredClone(body), () => false) as Result<{
    object: KubeObject
  }>
}
function stored(plural: string, body: KubeObject): Stored {
  const r = create(plural, body, plural === 'persistentvolumes' ? '' : 'default')
  if (!r.ok) throw new Error(r.status.message)
  r.value.object.metadata.resourceVersion = '5'
  return { rv: 5, object: r.value.object }
}
function refusal(r: Result<unknown>): Status & { message: string } {
  if (r.ok) throw new Error('expected a refusal')
  return { ...r.status, message: r.status.message ?? '' }
}

describe('PersistentVolume', () => {
  it('is defaulted (Retain, Filesystem) and starts Pending with its phase transition time', () => {
    const r = create('persistentvolumes', pv(goodPV), '')
    if (!r.ok) throw new Error(r.status.message)
    expect(r.value.object.spec).toMatchObject({ persistentVolumeReclaimPolicy: 'Retain', volumeMode: 'Filesystem' })
    expect(r.value.object.status).toEqual({ phase: 'Pending', lastPhaseTransitionTime: '2026-01-01T00:00:00Z' })
  })

  const head = 'PersistentVolume "v" is invalid: '
  const cases: [string, Record<string, unknown>, string][] = [
    [
      'no volume type',
      { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'] },
      `${head}spec: Required value: must specify a volume type`,
    ],
    [
      'two volume types',
      { ...goodPV, hostPath: { path: '/x' } },
      `${head}spec.nfs: Forbidden: may not specify more than 1 volume type`,
    ],
    ['no access modes', { ...goodPV, accessModes: [] }, `${head}spec.accessModes: Required value`],
    [
      'RWOP with another mode',
      { ...goodPV, accessModes: ['ReadWriteOncePod', 'ReadOnlyMany'] },
      `${head}spec.accessModes: Forbidden: may not use ReadWriteOncePod with other access modes`,
    ],
    [
      'an unknown access mode',
      { ...goodPV, accessModes: ['Everyone'] },
      `${head}spec.accessModes: Unsupported value: "Everyone": supported values: "ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod"`,
    ],
    [
      'no capacity',
      { ...goodPV, capacity: undefined },
      `${head}[spec.capacity: Required value, spec.capacity: Unsupported value: core.ResourceList{}: supported values: "storage"]`,
    ],
    [
      'zero capacity',
      { ...goodPV, capacity: { storage: '0' } },
      `${head}spec.capacity[storage]: Invalid value: "0": must be greater than zero`,
    ],
    [
      'an unknown reclaim policy',
      { ...goodPV, persistentVolumeReclaimPolicy: 'Keep' },
      `${head}spec.persistentVolumeReclaimPolicy: Unsupported value: "Keep": supported values: "Delete", "Recycle", "Retain"`,
    ],
    [
      'a relative NFS path',
      { ...goodPV, nfs: { server: 's', path: 'exports' } },
      `${head}spec.nfs.path: Invalid value: "exports": must be an absolute path`,
    ],
    [
      'a local volume without node affinity',
      { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], local: { path: '/mnt/disk' } },
      `${head}spec.nodeAffinity: Required value: Local volume requires node affinity`,
    ],
    [
      'CSI without a handle',
      {
        capacity: { storage: '1Gi' },
        accessModes: ['ReadWriteOnce'],
        csi: { driver: 'ebs.csi.aws.com', volumeHandle: '' },
      },
      `${head}spec.csi.volumeHandle: Required value`,
    ],
    [
      'recycling a hostPath of /',
      {
        capacity: { storage: '1Gi' },
        accessModes: ['ReadWriteOnce'],
        hostPath: { path: '/' },
        persistentVolumeReclaimPolicy: 'Recycle',
      },
      `${head}spec.persistentVolumeReclaimPolicy: Forbidden: may not be 'recycle' for a hostPath mount of '/'`,
    ],
  ]
  for (const [name, spec, message] of cases) {
    it(name, () => expect(refusal(create('persistentvolumes', pv(spec), '')).message).toBe(message))
  }

  it('the volume source and mode are immutable; status writes stamp a new phase', () => {
    const s = stored('persistentvolumes', pv(goodPV))
    const m = refusal(
      planUpdate(
        resourceByPlural('persistentvolumes')!,
        ctx,
        'v',
        pv({ ...goodPV, nfs: { server: 'other', path: '/exports' }, volumeMode: 'Block' }),
        s,
      ),
    ).message
    expect(
      m.startsWith(
        `${head}[spec.persistentvolumesource: Forbidden: spec.persistentvolumesource is immutable after creation\n`,
      ),
    ).toBe(true)
    expect(m).toContain('volumeMode: Invalid value: "Block": field is immutable')
    const later = { ...ctx, now: new Date('2026-01-02T00:00:00Z') }
    const st = planUpdate(
      statusDefOf(resourceByPlural('persistentvolumes')!)!,
      later,
      'v',
      { ...s.object, status: { phase: 'Available' } },
      s,
    )
    if (!st.ok) throw new Error(st.status.message)
    expect((st.value as { object: KubeObject }).object.status).toEqual({
      phase: 'Available',
      lastPhaseTransitionTime: '2026-01-02T00:00:00Z',
    })
  })

  it('kubectl get pv columns and cells', () => {
    const def = resourceByPlural('persistentvolumes')!
    const s = stored(
      'persistentvolumes',
      pv({ ...goodPV, accessModes: ['ReadWriteMany', 'ReadWriteOnce'], claimRef: { namespace: 'ns', name: 'data' } }),
    )
    expect(def.strategy.table.columns.map((c) => c.name)).toEqual([
      'Name',
      'Capacity',
      'Access Modes',
      'Reclaim Policy',
      'Status',
      'Claim',
      'StorageClass',
      'VolumeAttributesClass',
      'Reason',
      'Age',
      'VolumeMode',
    ])
    expect(def.strategy.table.cells(s.object, ctx.now)).toEqual([
      'v',
      '5Gi',
      'RWO,RWX',
      'Retain',
      'Pending',
      'ns/data',
      '',
      '<unset>',
      '',
      '0s',
      'Filesystem',
    ])
  })
})

describe('PersistentVolumeClaim', () => {
  it('is defaulted (Filesystem), starts Pending, and stays Pending (no storage is simulated)', () => {
    const r = create(
      'persistentvolumeclaims',
      pvc({ ...goodPVC, dataSource: { kind: 'PersistentVolumeClaim', name: 'src' } }),
    )
    if (!r.ok) throw new Error(r.status.message)
    expect(r.value.object.status).toEqual({ phase: 'Pending' })
    expect(r.value.object.spec).toMatchObject({
      volumeMode: 'Filesystem',
      dataSourceRef: { kind: 'PersistentVolumeClaim', name: 'src' },
    })
  })

  const head = 'PersistentVolumeClaim "c" is invalid: '
  const cases: [string, Record<string, unknown>, string][] = [
    [
      'no access modes',
      { resources: { requests: { storage: '1Gi' } } },
      `${head}spec.accessModes: Required value: at least 1 access mode is required`,
    ],
    ['no storage request', { accessModes: ['ReadWriteOnce'] }, `${head}spec.resources[storage]: Required value`],
    [
      'a data source reference of another kind in the core group (copied to dataSource, both refused)',
      { ...goodPVC, dataSourceRef: { kind: 'Pod', name: 'p' } },
      `${head}[spec.dataSource: Invalid value: "Pod": must be 'PersistentVolumeClaim' when referencing the default apiGroup, spec.dataSourceRef: Invalid value: "Pod": must be 'PersistentVolumeClaim' when referencing the default apiGroup]`,
    ],
    [
      'dataSource and dataSourceRef disagree',
      {
        ...goodPVC,
        dataSource: { kind: 'PersistentVolumeClaim', name: 'a' },
        dataSourceRef: { kind: 'PersistentVolumeClaim', name: 'b' },
      },
      `${head}spec: Invalid value: "spec.dataSource": must match dataSourceRef`,
    ],
  ]
  for (const [name, spec, message] of cases) {
    it(name, () => expect(refusal(create('persistentvolumeclaims', pvc(spec))).message).toBe(message))
  }

  it('the spec is immutable after creation (a first volumeName may be set)', () => {
    const def = resourceByPlural('persistentvolumeclaims')!
    const s = stored('persistentvolumeclaims', pvc(goodPVC))
    const bind = planUpdate(
      def,
      ctx,
      'c',
      { ...s.object, spec: { ...(s.object.spec as object), volumeName: 'pv-1' } },
      s,
    )
    expect(bind.ok, bind.ok ? '' : bind.status.message).toBe(true)
    const m = refusal(planUpdate(def, ctx, 'c', pvc({ ...goodPVC, accessModes: ['ReadWriteMany'] }), s)).message
    expect(
      m.startsWith(
        `${head}spec: Forbidden: spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims\n`,
      ),
    ).toBe(true)
    expect(m).toContain('- \tAccessModes: ["ReadWriteOnce"],\n+ \tAccessModes: ["ReadWriteMany"],')
  })

  it('kubectl get pvc columns and cells', () => {
    const def = resourceByPlural('persistentvolumeclaims')!
    const s = stored('persistentvolumeclaims', pvc({ ...goodPVC, storageClassName: 'fast' }))
    expect(def.strategy.table.columns.map((c) => c.name)).toEqual([
      'Name',
      'Status',
      'Volume',
      'Capacity',
      'Access Modes',
      'StorageClass',
      'VolumeAttributesClass',
      'Age',
      'VolumeMode',
    ])
    expect(def.strategy.table.cells(s.object, ctx.now)).toEqual([
      'c',
      'Pending',
      '',
      '',
      '',
      'fast',
      '<unset>',
      '0s',
      'Filesystem',
    ])
  })
})
