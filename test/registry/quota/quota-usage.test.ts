// What objects charge against quotas (kube 1.33's evaluators), measured by the pure functions: pods with init
// containers, sidecars and overhead, the cpu and memory aliases, services' node ports and load balancers, claims and
// their storage class, object counts; and the pod constraint message.
import { describe, expect, it } from 'vitest'
import { formatQuantity } from '../../../src/schema/quantity'
import type { KubeObject } from '../../../src/schema/meta'
import { checkQuota } from '../../../src/registry/quota/quota-check'
import { matchingResources, podConstraints, usageOf } from '../../../src/registry/quota/quota-usage'
import type { PodObject } from '../../../src/registry/strategies/pod/pod-types'

const now = new Date('2026-01-01T00:00:00Z')
const show = (
  u: Map<string, { mantissa: bigint; exponent: number; format: 'DecimalSI' | 'BinarySI' | 'DecimalExponent' }>,
) => Object.fromEntries([...u].map(([k, v]) => [k, formatQuantity(v)]))
const pod = (spec: Record<string, unknown>, status: Record<string, unknown> = {}) =>
  ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec, status }) as unknown as KubeObject

describe('usage', () => {
  it('a pod: containers summed, init containers as a floor, sidecars added, overhead, aliases', () => {
    const p = pod({
      initContainers: [
        { name: 'init', resources: { requests: { cpu: '2' } } },
        { name: 'side', restartPolicy: 'Always', resources: { requests: { cpu: '100m', memory: '64Mi' } } },
      ],
      containers: [
        { name: 'a', resources: { requests: { cpu: '250m', memory: '128Mi' }, limits: { cpu: '500m' } } },
        { name: 'b', resources: { requests: { cpu: '250m' } } },
      ],
      overhead: { cpu: '10m' },
    })
    expect(show(usageOf('pods', '', p, now))).toEqual({
      'count/pods': '1',
      pods: '1',
      cpu: '2010m',
      'requests.cpu': '2010m',
      memory: '192Mi',
      'requests.memory': '192Mi',
      'limits.cpu': '510m',
    })
  })

  it('a terminal pod is only an object', () => {
    expect(show(usageOf('pods', '', pod({ containers: [{ name: 'a' }] }, { phase: 'Succeeded' }), now))).toEqual({
      'count/pods': '1',
    })
  })

  it('services count node ports and load balancers by intent; claims their storage class', () => {
    const svc = { metadata: { name: 's' }, spec: { type: 'LoadBalancer', ports: [{ port: 80 }, { port: 443 }] } }
    expect(show(usageOf('services', '', svc as KubeObject, now))).toEqual({
      'count/services': '1',
      services: '1',
      'services.loadbalancers': '1',
      'services.nodeports': '2',
    })
    const pvc = {
      metadata: { name: 'c' },
      spec: { storageClassName: 'fast', resources: { requests: { storage: '5Gi' } } },
    }
    expect(show(usageOf('persistentvolumeclaims', '', pvc as KubeObject, now))).toEqual({
      'count/persistentvolumeclaims': '1',
      persistentvolumeclaims: '1',
      'fast.storageclass.storage.k8s.io/persistentvolumeclaims': '1',
      'requests.storage': '5Gi',
      'fast.storageclass.storage.k8s.io/requests.storage': '5Gi',
    })
    expect(show(usageOf('deployments', 'apps', { metadata: {} } as KubeObject, now))).toEqual({
      'count/deployments.apps': '1',
    })
    expect(show(usageOf('secrets', '', { metadata: {} } as KubeObject, now))).toEqual({
      'count/secrets': '1',
      secrets: '1',
    })
  })

  it('matches the quota resources each kind is charged for', () => {
    const hard = ['configmaps', 'count/deployments.apps', 'cpu', 'pods', 'requests.storage', 'services.nodeports']
    expect(matchingResources('pods', '', hard)).toEqual(['cpu', 'pods'])
    expect(matchingResources('deployments', 'apps', hard)).toEqual(['count/deployments.apps'])
    expect(matchingResources('configmaps', '', hard)).toEqual(['configmaps'])
    expect(matchingResources('persistentvolumeclaims', '', hard)).toEqual(['requests.storage'])
  })

  it('matches hugepages (bare or requested) and extended resources, never a kubernetes.io/ one, to pods', () => {
    const hard = [
      'example.com/gpu',
      'hugepages-2Mi',
      'requests.example.com/gpu',
      'requests.foo.kubernetes.io/gpu',
      'requests.hugepages-1Gi',
      'requests.kubernetes.io/gpu',
    ]
    expect(matchingResources('pods', '', hard)).toEqual([
      'hugepages-2Mi',
      'requests.example.com/gpu',
      'requests.hugepages-1Gi',
    ])
  })

  it('names every container a compute quota needs', () => {
    const p = pod({
      initContainers: [{ name: 'init' }],
      containers: [{ name: 'a', resources: { requests: { cpu: '1' } } }, { name: 'b' }],
    }) as PodObject
    expect(podConstraints(p, ['cpu', 'limits.memory', 'pods'])).toBe(
      'must specify cpu for: b,init; limits.memory for: a,b,init',
    )
  })
})

describe('checkQuota', () => {
  /** A quota the controller has synced: status.hard mirrors spec.hard (used as given, else zero for each). */
  const quota = (hard: Record<string, string>, used?: Record<string, string>) =>
    ({
      metadata: { name: 'q' },
      spec: { hard },
      status: { hard, used: used ?? Object.fromEntries(Object.keys(hard).map((k) => [k, '0'])) },
    }) as KubeObject
  const kind = { resource: 'pods', group: '' }

  it("enforces status.hard, as kube's admission does: nothing before the controller syncs, and its limits after", () => {
    const one = pod({ containers: [{ name: 'b', resources: { requests: { cpu: '300m' } } }] })
    const unsynced = { metadata: { name: 'q' }, spec: { hard: { pods: '0' } } } as KubeObject
    expect(checkQuota(kind, one, null, { quotas: [unsynced], objects: () => [], now })).toEqual({ charged: [] })
    // spec.hard lowered to 0, the controller not there yet: status.hard still allows 5.
    const stale = { ...quota({ pods: '5' }, { pods: '1' }), spec: { hard: { pods: '0' } } } as KubeObject
    const verdict = checkQuota(kind, one, null, { quotas: [stale], objects: () => [], now })
    expect('charged' in verdict && verdict.charged[0]!.used).toEqual({ pods: '2' })
  })

  it('refuses when status.used lacks a resource of status.hard the object is charged for (status unknown)', () => {
    const one = pod({ containers: [{ name: 'b', resources: { requests: { cpu: '300m' } } }] })
    const partial = quota({ pods: '5', 'requests.cpu': '1', services: '1' }, { 'requests.cpu': '0' })
    expect(checkQuota(kind, one, null, { quotas: [partial], objects: () => [], now })).toEqual({
      refused: 'status unknown for quota: q, resources: pods,requests.cpu',
    })
  })

  it('charges the cpu alias and refuses past it with every exceeded resource', () => {
    const used = { cpu: '700m', memory: '1Gi', pods: '1' }
    const view = { quotas: [quota({ cpu: '1', memory: '2Gi', pods: '5' }, used)], objects: () => [], now }
    const next = pod({ containers: [{ name: 'b', resources: { requests: { cpu: '500m', memory: '1536Mi' } } }] })
    expect(checkQuota({ resource: 'pods', group: '' }, next, null, view)).toEqual({
      refused:
        'exceeded quota: q, requested: cpu=500m,memory=1536Mi, used: cpu=700m,memory=1Gi, limited: cpu=1,memory=2Gi',
    })
    const fits = pod({ containers: [{ name: 'b', resources: { requests: { cpu: '300m', memory: '1Gi' } } }] })
    const verdict = checkQuota({ resource: 'pods', group: '' }, fits, null, view)
    expect('charged' in verdict && verdict.charged[0]!.used).toEqual({ cpu: '1', memory: '2Gi', pods: '2' })
  })

  it('charges a bare hugepages-<size> hard as kube does (the pod evaluator counts it with requests.hugepages-)', () => {
    const hard = { 'hugepages-2Mi': '512Mi' }
    const q = {
      metadata: { name: 'q' },
      spec: { hard },
      status: { hard, used: { 'hugepages-2Mi': '0' } },
    } as KubeObject
    const huge = (size: string) =>
      pod({
        containers: [
          { name: 'a', resources: { requests: { 'hugepages-2Mi': size }, limits: { 'hugepages-2Mi': size } } },
        ],
      })
    const view = { quotas: [q], objects: () => [], now }
    expect(checkQuota({ resource: 'pods', group: '' }, huge('1Gi'), null, view)).toEqual({
      refused: 'exceeded quota: q, requested: hugepages-2Mi=1Gi, used: hugepages-2Mi=0, limited: hugepages-2Mi=512Mi',
    })
    const fits = checkQuota({ resource: 'pods', group: '' }, huge('256Mi'), null, view)
    expect('charged' in fits && fits.charged[0]!.used).toEqual({ 'hugepages-2Mi': '256Mi' })
  })

  it('charges against the kept usage, else status.used, and never lists the objects', () => {
    const noList = () => {
      throw new Error('listed the namespace')
    }
    const one = pod({ containers: [{ name: 'b', resources: { requests: { cpu: '300m' } } }] })
    const counted = quota({ pods: '3', cpu: '1' }, { pods: '2', cpu: '600m' })
    const kept = new Map([
      ['pods', { mantissa: 1n, exponent: 0, format: 'DecimalSI' as const }],
      ['cpu', { mantissa: 100n, exponent: -3, format: 'DecimalSI' as const }],
    ])
    // The ledger's usage wins over a status the controller has not written yet (a pod just deleted).
    const byLedger = checkQuota(kind, one, null, { quotas: [counted], objects: noList, usage: () => kept, now })
    expect('charged' in byLedger && byLedger.charged[0]!.used).toEqual({ cpu: '400m', pods: '2' })
    const byStatus = checkQuota(kind, one, null, { quotas: [counted], objects: noList, now })
    expect('charged' in byStatus && byStatus.charged[0]!.used).toEqual({ cpu: '900m', pods: '3' })
    expect(checkQuota(kind, one, null, { quotas: [counted], objects: noList, now: new Date(now) })).not.toHaveProperty(
      'refused',
    )
  })
})
