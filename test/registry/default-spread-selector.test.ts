// kube-scheduler's helper.DefaultSelector (src/registry/default-spread-selector.ts): the Services that select the pod
// and its controller (ReplicationController, ReplicaSet, StatefulSet, found by name) make the selector of the system
// default spread constraints.
import { describe, expect, it } from 'vitest'
import { defaultSpreadSelector } from '../../src/registry/default-spread-selector'

type Obj = Record<string, any>

const pod = (labels: Record<string, string>, owner?: { apiVersion: string; kind: string; name: string }) => ({
  metadata: {
    name: 'p',
    labels,
    ...(owner ? { ownerReferences: [{ ...owner, uid: 'u', controller: true }] } : {}),
  },
})
const service = (selector: Record<string, string> | null) => ({ spec: selector === null ? {} : { selector } })
function selectorOf(p: Obj, services: Obj[], controllers: Record<string, Obj> = {}) {
  return defaultSpreadSelector(p, {
    services: () => services,
    controller: (resource, name) => controllers[`${resource}/${name}`] ?? null,
  })
}

describe('defaultSpreadSelector', () => {
  it('merges the selectors of the Services that select the pod; others, and selector-less ones, add nothing', () => {
    const p = pod({ app: 'web', tier: 'front', track: 'stable' })
    const services = [service({ app: 'web' }), service({ tier: 'front' }), service({ app: 'db' }), service(null)]
    expect(selectorOf(p, services)).toEqual({ matchLabels: { app: 'web', tier: 'front' } })
  })

  it('nothing selects the pod, or only an empty selector does: null (no default spreading)', () => {
    expect(selectorOf(pod({ app: 'web' }), [])).toBeNull()
    expect(selectorOf(pod({ app: 'web' }), [service({})])).toBeNull()
    const orphan = pod({ app: 'web' }, { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'gone' })
    expect(selectorOf(orphan, [])).toBeNull()
  })

  it("adds a ReplicationController's selector", () => {
    const p = pod({ app: 'web', v: '1' }, { apiVersion: 'v1', kind: 'ReplicationController', name: 'rc' })
    const rc = { spec: { selector: { app: 'web', v: '1' } } }
    expect(selectorOf(p, [service({ app: 'web' })], { 'replicationcontrollers/rc': rc })).toEqual({
      matchLabels: { app: 'web', v: '1' },
    })
  })

  it("adds a ReplicaSet's or StatefulSet's requirements, expressions included", () => {
    const selector = { matchLabels: { app: 'web' }, matchExpressions: [{ key: 'v', operator: 'In', values: ['1'] }] }
    for (const [kind, resource] of [
      ['ReplicaSet', 'replicasets'],
      ['StatefulSet', 'statefulsets'],
    ] as const) {
      const p = pod({ app: 'web', v: '1' }, { apiVersion: 'apps/v1', kind, name: 'c' })
      expect(selectorOf(p, [], { [`${resource}/c`]: { spec: { selector } } })).toEqual(selector)
    }
  })

  it('owners that are not the controller, or of other kinds or versions, are not looked up', () => {
    const rs = { spec: { selector: { matchLabels: { app: 'web' } } } }
    const notController = {
      metadata: { labels: { app: 'web' }, ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'c' }] },
    }
    expect(selectorOf(notController, [], { 'replicasets/c': rs })).toBeNull()
    const oldGroup = pod({ app: 'web' }, { apiVersion: 'extensions/v1beta1', kind: 'ReplicaSet', name: 'c' })
    expect(selectorOf(oldGroup, [], { 'replicasets/c': rs })).toBeNull()
  })
})
