// kube's IgnoreManagedFieldsTimestampsTransformer: a write whose only difference is a managedFields time is a no-op.
// The pure rule first, then the case that needs it through the API: re-applying a LimitRange whose applied config
// lacks what defaulting adds, a second later.
import { describe, expect, it } from 'vitest'
import { keepManagedFieldsTimestamps } from '../../../src/registry/managed-fields/timestamps'
import type { KubeObject } from '../../../src/schema/meta'
import { makeNamespace, req } from '../../helpers'

const entry = (manager: string, time: string) => ({
  manager,
  operation: 'Apply',
  apiVersion: 'v1',
  time,
  fieldsType: 'FieldsV1',
  fieldsV1: { 'f:data': { 'f:a': {} } },
})
const obj = (data: Record<string, string>, ...managedFields: object[]): KubeObject =>
  ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', managedFields }, data }) as unknown as KubeObject

describe('keepManagedFieldsTimestamps', () => {
  it('restores the stored times when nothing else differs', () => {
    const old = obj({ a: '1' }, entry('m', '2026-01-01T00:00:00Z'), entry('n', '2026-01-01T00:00:01Z'))
    const next = obj({ a: '1' }, entry('m', '2026-01-01T00:00:09Z'), entry('n', '2026-01-01T00:00:01Z'))
    keepManagedFieldsTimestamps(next, old)
    expect(next).toEqual(old)
  })

  it('keeps the new times when the object, an entry or the number of entries differs', () => {
    const old = obj({ a: '1' }, entry('m', '2026-01-01T00:00:00Z'))
    const data = obj({ a: '2' }, entry('m', '2026-01-01T00:00:09Z'))
    keepManagedFieldsTimestamps(data, old)
    expect(data.metadata.managedFields![0]!.time).toBe('2026-01-01T00:00:09Z')
    const owner = obj({ a: '1' }, entry('other', '2026-01-01T00:00:09Z'))
    keepManagedFieldsTimestamps(owner, old)
    expect(owner.metadata.managedFields![0]!.time).toBe('2026-01-01T00:00:09Z')
    const more = obj({ a: '1' }, entry('m', '2026-01-01T00:00:09Z'), entry('n', '2026-01-01T00:00:09Z'))
    keepManagedFieldsTimestamps(more, old)
    expect(more.metadata.managedFields).toHaveLength(2)
    expect(more.metadata.managedFields![0]!.time).toBe('2026-01-01T00:00:09Z')
  })

  it('an identical re-apply of a LimitRange a second later is a no-op: same resourceVersion, same time', async () => {
    const ns = await makeNamespace('mftime')
    const path = `/api/v1/namespaces/${ns}/limitranges/lr?fieldManager=m`
    const body = JSON.stringify({
      apiVersion: 'v1',
      kind: 'LimitRange',
      metadata: { name: 'lr' },
      spec: { limits: [{ type: 'Container', default: { cpu: '500m' } }] },
    })
    const apply = { 'content-type': 'application/apply-patch+yaml' }
    const first = await req('PATCH', path, body, apply)
    expect(first.status, first.text).toBe(201)
    // Defaulting added what the config does not hold, so the apply itself sees a change.
    expect(first.json.spec.limits[0].defaultRequest).toEqual({ cpu: '500m' })
    await new Promise((r) => setTimeout(r, 1100))
    const dry = await req('PATCH', `${path}&dryRun=All`, body, apply)
    expect(dry.json).toEqual(first.json)
    const again = await req('PATCH', path, body, apply)
    expect(again.status, again.text).toBe(200)
    expect(again.json).toEqual(first.json)
  })
})
