// What the namespace sends the cluster's scheduler for a batch of placements (src/namespace/schedule-request.ts): the
// system default spreading selector, with the Services and each controller read once per batch.
import { describe, expect, it } from 'vitest'
import type { ControllerHost } from '../../src/host/controller'
import { batchLookups, placementRequest } from '../../src/namespace/schedule-request'
import type { KubeObject } from '../../src/schema/meta'

function countingHost() {
  const reads = { all: 0, get: 0 }
  const rs = { metadata: { name: 'rs' }, spec: { selector: { matchLabels: { app: 'web' } } } }
  const service = { metadata: { name: 'web' }, spec: { selector: { app: 'web' } } }
  const host = {
    scope: 'ns',
    all: (resource: string) => {
      reads.all++
      return resource === 'services' ? [{ rv: 1, object: service }] : []
    },
    get: (resource: string, name: string) => {
      reads.get++
      return resource === 'replicasets' && name === 'rs' ? { rv: 2, object: rs } : null
    },
  } as unknown as ControllerHost
  return { host, reads }
}

const replica = (name: string, spec: object = {}) =>
  ({
    metadata: {
      name,
      namespace: 'ns',
      uid: `uid-${name}`,
      labels: { app: 'web' },
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs', uid: 'u', controller: true }],
    },
    spec: { containers: [{ name: 'c', image: 'x' }], ...spec },
  }) as unknown as KubeObject

describe('placementRequest', () => {
  it("carries the Service's and the ReplicaSet's selector; a batch reads each once", () => {
    const { host, reads } = countingHost()
    const lookups = batchLookups(host)
    const reqs = ['a', 'b', 'c'].map((n) => placementRequest(host, replica(n), lookups))
    expect(reqs.map((r) => r.defaultSpreadSelector)).toEqual(Array(3).fill({ matchLabels: { app: 'web' } }))
    expect(reads).toEqual({ all: 1, get: 1 })
  })

  it('a pod with spread constraints of its own carries none and reads nothing', () => {
    const { host, reads } = countingHost()
    const own = { topologySpreadConstraints: [{ maxSkew: 1, topologyKey: 'zone', whenUnsatisfiable: 'DoNotSchedule' }] }
    const req = placementRequest(host, replica('a', own), batchLookups(host))
    expect(req.defaultSpreadSelector).toBeUndefined()
    expect(reads).toEqual({ all: 0, get: 0 })
  })
})
