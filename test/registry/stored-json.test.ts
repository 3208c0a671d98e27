// Stored JSON is written in Go's order and read back with resourceVersion in its place, so what a read returns is
// already in wire order and the encoder writes it with the native JSON.stringify.
import { describe, expect, it } from 'vitest'
import { encodeStored, materialize } from '../../src/registry/stored-json'
import { encodeBody } from '../../src/registry/wire-json'
import { inPlanOrder, planOfValue } from '../../src/registry/wire-plan'
import type { KubeObject } from '../../src/schema/meta'

const pod = (): KubeObject => ({
  status: { phase: 'Pending' },
  spec: { restartPolicy: 'Always', containers: [{ image: 'nginx', name: 'c' }] },
  metadata: {
    managedFields: [{ fieldsV1: { 'f:spec': {} }, operation: 'Update', manager: 'kubectl' }],
    labels: { b: '1', a: '2' },
    creationTimestamp: '2025-01-01T00:00:00Z',
    resourceVersion: '41',
    uid: 'u-1',
    namespace: 'ns',
    name: 'web',
  },
  apiVersion: 'v1',
  kind: 'Pod',
})

describe('stored JSON', () => {
  it('is written in Go order, without resourceVersion, and leaves the object as it was', () => {
    const obj = pod()
    const before = JSON.stringify(obj)
    expect(encodeStored(obj)).toBe(
      '{"kind":"Pod","apiVersion":"v1","metadata":{"name":"web","namespace":"ns","uid":"u-1",' +
        '"creationTimestamp":"2025-01-01T00:00:00Z","labels":{"a":"2","b":"1"},' +
        '"managedFields":[{"manager":"kubectl","operation":"Update","fieldsV1":{"f:spec":{}}}]},' +
        '"spec":{"containers":[{"name":"c","image":"nginx"}],"restartPolicy":"Always"},"status":{"phase":"Pending"}}',
    )
    expect(JSON.stringify(obj)).toBe(before)
  })

  it('reads back with resourceVersion where ObjectMeta declares it, in wire order for the fast path', () => {
    const back = materialize(encodeStored(pod()), 42)
    expect(Object.keys(back.metadata)).toEqual([
      'name',
      'namespace',
      'uid',
      'resourceVersion',
      'creationTimestamp',
      'labels',
      'managedFields',
    ])
    expect(inPlanOrder(back, planOfValue(back))).toBe(true)
    expect(JSON.stringify(back) + '\n').toBe(
      encodeBody(pod()).replace('"resourceVersion":"41"', '"resourceVersion":"42"'),
    )
  })

  it('puts resourceVersion last when nothing after it in ObjectMeta is set', () => {
    const back = materialize('{"kind":"Pod","apiVersion":"v1","metadata":{"name":"a","uid":"u"}}', 7)
    expect(Object.keys(back.metadata)).toEqual(['name', 'uid', 'resourceVersion'])
  })
})
