// The DefaultStorageClass admission plugin through the pure store: a claim created naming no class gets the default
// (the newest of several, then the first by name); a class named, "" or the beta annotation keep theirs.
import { describe, expect, it } from 'vitest'
import { resourceByPlural } from '../../../../src/registry/resources'
import type { Result } from '../../../../src/registry/status'
import { planCreate, planUpdate } from '../../../../src/registry/store'
import type { StrategyContext } from '../../../../src/registry/strategy'
import type { KubeObject } from '../../../../src/schema/meta'

type Obj = KubeObject & Record<string, any>
const DEFAULT = { 'storageclass.kubernetes.io/is-default-class': 'true' }
const sc = (name: string, created: string, annotations?: Record<string, string>) =>
  ({
    apiVersion: 'storage.k8s.io/v1',
    kind: 'StorageClass',
    metadata: { name, creationTimestamp: created, ...(annotations ? { annotations } : {}) },
    provisioner: 'example.com/p',
  }) as Obj
const ctxWith = (classes: Obj[]): StrategyContext => ({
  now: new Date('2026-01-01T00:00:00Z'),
  namespace: 'default',
  clusterObjects: (r) => (r === 'storageclasses' ? classes : []),
})
const claim = (spec: Record<string, unknown> = {}, annotations?: Record<string, string>) =>
  ({
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: { name: 'data', namespace: 'default', ...(annotations ? { annotations } : {}) },
    spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, ...spec },
  }) as Obj
const def = () => resourceByPlural('persistentvolumeclaims')!
const classOf = (body: Obj, classes: Obj[]) => {
  const r = planCreate(def(), ctxWith(classes), structuredClone(body), () => false) as Result<{ object: Obj }>
  if (!r.ok) throw new Error(r.status.message)
  return r.value.object.spec.storageClassName
}

describe('DefaultStorageClass admission', () => {
  const standard = sc('standard', '2025-01-01T00:00:00Z', DEFAULT)
  it('gives a claim naming no class the default, and nothing when there is none', () => {
    expect(classOf(claim(), [sc('slow', '2024-01-01T00:00:00Z'), standard])).toBe('standard')
    expect(classOf(claim(), [sc('slow', '2024-01-01T00:00:00Z')])).toBeUndefined()
  })

  it('picks the newest default, then the first by name', () => {
    const newer = sc('zz-newer', '2025-06-01T00:00:00Z', DEFAULT)
    expect(classOf(claim(), [standard, newer])).toBe('zz-newer')
    const twin = sc('aa-twin', '2025-06-01T00:00:00Z', { 'storageclass.beta.kubernetes.io/is-default-class': 'true' })
    expect(classOf(claim(), [standard, newer, twin])).toBe('aa-twin')
  })

  it('leaves a claim that names a class, asks for none (""), or carries the beta annotation', () => {
    expect(classOf(claim({ storageClassName: 'slow' }), [standard])).toBe('slow')
    expect(classOf(claim({ storageClassName: '' }), [standard])).toBe('')
    expect(classOf(claim({}, { 'volume.beta.kubernetes.io/storage-class': 'old' }), [standard])).toBeUndefined()
  })

  it('does nothing on an update', () => {
    const r = planCreate(def(), ctxWith([]), claim(), () => false) as Result<{ object: Obj }>
    if (!r.ok) throw new Error(r.status.message)
    const current = {
      object: { ...r.value.object, metadata: { ...r.value.object.metadata, resourceVersion: '2' } },
      rv: 2,
    }
    const next = structuredClone(current.object)
    next.metadata.labels = { a: 'b' }
    const u = planUpdate(def(), ctxWith([standard]), 'data', next, current) as Result<{ object: Obj }>
    expect(u.ok && u.value.object.spec.storageClassName).toBeUndefined()
  })
})
