// The Lease strategy through the pure store, against kube 1.33's ValidateLeaseSpec and its lease strategy: whole
// Status messages, and strategy/preferredHolder dropped while CoordinatedLeaderElection is off (1.33's default).
import { describe, expect, it } from 'vitest'
import { resourceByPlural } from '../../../../src/registry/resources'
import { planCreate, planUpdate } from '../../../../src/registry/store'
import type { KubeObject } from '../../../../src/schema/meta'

const def = resourceByPlural('leases')!
const ctx = { now: new Date('2026-01-01T00:00:00Z'), namespace: 'default' }
const lease = (spec: Record<string, unknown>) =>
  ({
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: { name: 'l', namespace: 'default' },
    spec,
  }) as KubeObject

describe('Lease validation', () => {
  const cases: [string, Record<string, unknown>, string | null][] = [
    [
      'a leader election lease',
      {
        holderIdentity: 'pod-a_1234',
        leaseDurationSeconds: 15,
        acquireTime: '2026-01-01T00:00:00.000000Z',
        renewTime: '2026-01-01T00:00:10.123456Z',
        leaseTransitions: 3,
      },
      null,
    ],
    ['an empty spec', {}, null],
    [
      'a duration of 0',
      { leaseDurationSeconds: 0 },
      'Lease.coordination.k8s.io "l" is invalid: spec.leaseDurationSeconds: Invalid value: 0: must be greater than 0',
    ],
    [
      'negative transitions and duration',
      { leaseDurationSeconds: -1, leaseTransitions: -2 },
      'Lease.coordination.k8s.io "l" is invalid: [spec.leaseDurationSeconds: Invalid value: -1: must be greater than 0, spec.leaseTransitions: Invalid value: -2: must be greater than or equal to 0]',
    ],
  ]
  for (const [name, spec, message] of cases) {
    it(name, () => {
      const r = planCreate(def, ctx, lease(spec), () => false)
      if (message === null) expect(r.ok, r.ok ? '' : r.status.message).toBe(true)
      else expect(r.ok ? '' : r.status.message).toBe(message)
    })
  }

  it('strategy and preferredHolder are dropped (CoordinatedLeaderElection is off in 1.33)', () => {
    const r = planCreate(
      def,
      ctx,
      lease({ holderIdentity: 'a', strategy: 'OldestEmulationVersion', preferredHolder: 'b' }),
      () => false,
    )
    if (!r.ok) throw new Error(r.status.message)
    expect(r.value.object.spec).toEqual({ holderIdentity: 'a' })
    const stored = {
      rv: 3,
      object: { ...r.value.object, metadata: { ...r.value.object.metadata, resourceVersion: '3' } },
    }
    const u = planUpdate(def, ctx, 'l', lease({ holderIdentity: 'b', strategy: 'x/y', preferredHolder: 'c' }), stored)
    if (!u.ok) throw new Error(u.status.message)
    expect((u.value as { object: KubeObject }).object.spec).toEqual({ holderIdentity: 'b' })
  })

  it('kubectl get leases: NAME HOLDER AGE', () => {
    const r = planCreate(def, ctx, lease({ holderIdentity: 'node-1' }), () => false)
    if (!r.ok) throw new Error(r.status.message)
    expect(def.strategy.table.columns.map((c) => c.name)).toEqual(['Name', 'Holder', 'Age'])
    expect(def.strategy.table.cells(r.value.object, ctx.now)).toEqual(['l', 'node-1', '0s'])
  })
})
