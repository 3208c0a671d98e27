// What an Update changed, as structured-merge-diff's Compare: leaves added, modified or removed, and non-leaf nodes
// present on one side only; a create compares with the kind's empty Go object, where non-omitempty nil fields exist.
import { describe, expect, it } from 'vitest'
import { goTypeOf } from '../../../src/registry/decoding/go-types'
import { compareObjects } from '../../../src/registry/managed-fields/compare'
import { Pod } from '../../../src/schema/pod'

const POD = goTypeOf(Pod, 'v1.Pod')
const paths = (s: Set<string>) => [...s].map((p) => p.replaceAll('\u0001', '.')).sort()
const pod = (spec: Record<string, unknown>, labels?: Record<string, string>) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'p', ...(labels ? { labels } : {}) },
  spec,
})
const C = [{ name: 'c', image: 'i' }]

describe('compareObjects', () => {
  it('a create: labels and the container item are added nodes; containers and spec (in the empty Go pod) are not', () => {
    const c = compareObjects(null, pod({ containers: C }, { app: 'a' }), Pod, POD)
    expect(paths(c.added)).toEqual([
      'f:metadata.f:labels',
      'f:metadata.f:labels.f:app',
      'f:spec.f:containers.k:{"name":"c"}',
      'f:spec.f:containers.k:{"name":"c"}.f:image',
      'f:spec.f:containers.k:{"name":"c"}.f:name',
    ])
    expect(paths(c.modified)).toEqual([])
  })

  it('a custom resource (no Go type) has an empty empty object: spec is added too', () => {
    const c = compareObjects(null, { spec: { a: 1 } }, Pod, null)
    expect(paths(c.added)).toEqual(['f:spec', 'f:spec.f:a'])
  })

  it('an update: a changed leaf is modified, a dropped map is removed with its keys, atomic maps are leaves', () => {
    const old = pod({ containers: C, nodeSelector: { a: '1' } }, { app: 'a' })
    const next = pod({ containers: [{ name: 'c', image: 'j' }], nodeSelector: { a: '2' } })
    const c = compareObjects(old, next, Pod, POD)
    expect(paths(c.modified)).toEqual(['f:spec.f:containers.k:{"name":"c"}.f:image', 'f:spec.f:nodeSelector'])
    expect(paths(c.removed)).toEqual(['f:metadata.f:labels', 'f:metadata.f:labels.f:app'])
    expect(paths(c.added)).toEqual([])
  })

  it('a non-omitempty slice our JSON leaves out is there to Go (null): filling it adds no node for it', () => {
    const c = compareObjects(pod({}), pod({ containers: C }), Pod, POD)
    expect(paths(c.added)).not.toContain('f:spec.f:containers')
    expect(paths(c.added)).toContain('f:spec.f:containers.k:{"name":"c"}')
    // An omitempty one is not: a first volume adds the volumes node too.
    const t = compareObjects(pod({ containers: C }), pod({ containers: C, volumes: [{ name: 'v' }] }), Pod, POD)
    expect(paths(t.added)).toEqual([
      'f:spec.f:volumes',
      'f:spec.f:volumes.k:{"name":"v"}',
      'f:spec.f:volumes.k:{"name":"v"}.f:name',
    ])
  })

  it('name, uid and other identity fields are nobody’s', () => {
    const c = compareObjects(
      null,
      { ...pod({ containers: C }), metadata: { name: 'p', uid: 'u', generateName: 'g' } },
      Pod,
      POD,
    )
    expect(paths(c.added)).toContain('f:metadata.f:generateName')
    expect(paths(c.added).filter((p) => p === 'f:metadata.f:name' || p === 'f:metadata.f:uid')).toEqual([])
  })
})
