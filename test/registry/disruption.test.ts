// The disruption controller's arithmetic and the eviction's check-and-decrement (src/registry/disruption.ts), as
// kube's pkg/controller/disruption and eviction.go compute them.
import { describe, expect, it } from 'vitest'
import { budgetsForPod, checkAndDecrement, expectedPodCount, syncBudget } from '../../src/registry/disruption'
import type { PDBObject } from '../../src/registry/strategies/pod-disruption-budget'
import type { KubeObject } from '../../src/schema/meta'

const NOW = new Date('2026-01-01T00:10:00Z')
const rs = { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-1', uid: 'rs-uid', controller: true }
const pod = (name: string, ready = true, extra: Record<string, unknown> = {}): KubeObject =>
  ({
    metadata: { name, labels: { app: 'web' }, ownerReferences: [rs], ...extra },
    status: { phase: 'Running', conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] },
  }) as unknown as KubeObject
const budget = (spec: Record<string, unknown>, status?: Record<string, unknown>): PDBObject =>
  ({
    metadata: { name: 'web', generation: 1 },
    spec: { selector: { matchLabels: { app: 'web' } }, ...spec },
    status: status ?? { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 },
  }) as unknown as PDBObject
const scale5 = () => 5

describe('expectedPodCount', () => {
  const pods = [pod('a'), pod('b'), pod('c')]
  it('an integer minAvailable counts the pods; percentages and maxUnavailable count the controllers, rounding up', () => {
    expect(expectedPodCount(budget({ minAvailable: 2 }), pods, scale5)).toEqual({
      expected: 3,
      desiredHealthy: 2,
      unmanaged: [],
    })
    expect(expectedPodCount(budget({ minAvailable: '50%' }), pods, scale5)).toEqual({
      expected: 5,
      desiredHealthy: 3,
      unmanaged: [],
    })
    expect(expectedPodCount(budget({ maxUnavailable: '30%' }), pods, scale5)).toEqual({
      expected: 5,
      desiredHealthy: 3,
      unmanaged: [],
    })
    expect(expectedPodCount(budget({ maxUnavailable: 9 }), pods, scale5)).toEqual({
      expected: 5,
      desiredHealthy: 0,
      unmanaged: [],
    })
  })
  it('pods without a controller are reported; a controller that is gone or lacks /scale is an error', () => {
    const orphan = { ...pod('o'), metadata: { name: 'o', labels: { app: 'web' } } } as KubeObject
    expect(expectedPodCount(budget({ maxUnavailable: 1 }), [orphan], scale5)).toEqual({
      expected: 0,
      desiredHealthy: 0,
      unmanaged: ['o'],
    })
    expect(expectedPodCount(budget({ maxUnavailable: 1 }), pods, () => null)).toEqual({
      error: 'found no controllers for pod "a"',
    })
    const noScale = () => ({ error: 'daemonsets.apps does not implement the scale subresource' })
    expect(expectedPodCount(budget({ minAvailable: '10%' }), pods, noScale)).toEqual(noScale())
  })
})

describe('syncBudget', () => {
  it('counts ready pods, allows the surplus, sets DisruptionAllowed; a second sync writes nothing', () => {
    const pdb = budget({ minAvailable: 2 })
    const s = syncBudget(
      pdb,
      [pod('a'), pod('b'), pod('c', false), pod('d', true, { deletionTimestamp: 'x' })],
      scale5,
      NOW,
    )
    expect(s.status).toEqual({
      disruptionsAllowed: 0,
      currentHealthy: 2,
      desiredHealthy: 2,
      expectedPods: 4,
      observedGeneration: 1,
      conditions: [
        {
          type: 'DisruptionAllowed',
          status: 'False',
          reason: 'InsufficientPods',
          message: '',
          observedGeneration: 1,
          lastTransitionTime: '2026-01-01T00:10:00Z',
        },
      ],
    })
    const more = syncBudget(
      { ...pdb, status: s.status! },
      [pod('a'), pod('b'), pod('c')],
      scale5,
      new Date('2026-01-01T00:11:00Z'),
    )
    expect(more.status!.disruptionsAllowed).toBe(1)
    expect(more.status!.conditions).toEqual([
      {
        type: 'DisruptionAllowed',
        status: 'True',
        reason: 'SufficientPods',
        message: '',
        observedGeneration: 1,
        lastTransitionTime: '2026-01-01T00:11:00Z',
      },
    ])
    expect(syncBudget({ ...pdb, status: more.status! }, [pod('a'), pod('b'), pod('c')], scale5, NOW).status).toBeNull()
  })

  it('a pod an eviction was allowed for stays out of the count for two minutes, then is reported not deleted', () => {
    const pdb = budget(
      { minAvailable: 1 },
      {
        disruptionsAllowed: 0,
        currentHealthy: 2,
        desiredHealthy: 1,
        expectedPods: 2,
        observedGeneration: 1,
        disruptedPods: { a: '2026-01-01T00:09:00Z' },
      },
    )
    const held = syncBudget(pdb, [pod('a'), pod('b')], scale5, NOW)
    expect(held.status!.currentHealthy).toBe(1)
    expect(held.status!.disruptedPods).toEqual({ a: '2026-01-01T00:09:00Z' })
    expect(held.recheckAt).toBe(Date.parse('2026-01-01T00:11:00Z'))
    const late = syncBudget(pdb, [pod('a'), pod('b')], scale5, new Date('2026-01-01T00:12:00Z'))
    expect(late.status!.currentHealthy).toBe(2)
    expect(late.status!.disruptedPods).toBeUndefined()
    expect(late.notDeleted).toEqual(['a'])
  })

  it('failSafe: no disruptions, SyncFailed with the reason, observedGeneration left behind', () => {
    const s = syncBudget(budget({ minAvailable: '50%' }), [pod('a')], () => null, NOW)
    expect(s.error).toBe('found no controllers for pod "a"')
    expect(s.status).toMatchObject({
      disruptionsAllowed: 0,
      conditions: [
        {
          type: 'DisruptionAllowed',
          status: 'False',
          reason: 'SyncFailed',
          message: 'found no controllers for pod "a"',
        },
      ],
    })
    expect(s.status!.observedGeneration).toBeUndefined()
  })
})

describe('checkAndDecrement', () => {
  const ready = { disruptionsAllowed: 1, currentHealthy: 3, desiredHealthy: 2, expectedPods: 3, observedGeneration: 1 }
  it('takes one disruption and records the pod; a dry run only checks', () => {
    const r = checkAndDecrement(budget({ minAvailable: 2 }, ready), 'a', false, NOW)
    expect('pdb' in r && r.pdb!.status).toMatchObject({
      disruptionsAllowed: 0,
      disruptedPods: { a: '2026-01-01T00:10:00Z' },
    })
    expect('pdb' in r && r.pdb!.status!.conditions![0]).toMatchObject({ status: 'False', reason: 'InsufficientPods' })
    expect(checkAndDecrement(budget({ minAvailable: 2 }, ready), 'a', true, NOW)).toEqual({ pdb: null })
  })
  it("refuses with kube's 429s and 403s", () => {
    const none = checkAndDecrement(
      budget({ minAvailable: 3 }, { ...ready, disruptionsAllowed: 0, desiredHealthy: 3 }),
      'a',
      false,
      NOW,
    )
    expect(none).toEqual({
      refused: {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: "Cannot evict pod as it would violate the pod's disruption budget.",
        reason: 'TooManyRequests',
        code: 429,
        details: {
          causes: [
            {
              reason: 'DisruptionBudget',
              message: 'The disruption budget web needs 3 healthy pods and has 3 currently',
            },
          ],
        },
      },
    })
    const stale = checkAndDecrement(
      { ...budget({ minAvailable: 2 }, ready), metadata: { name: 'web', generation: 2 } },
      'a',
      false,
      NOW,
    )
    expect('refused' in stale && stale.refused.details).toEqual({
      causes: [
        { reason: 'DisruptionBudget', message: 'The disruption budget web is still being processed by the server.' },
      ],
      retryAfterSeconds: 10,
    })
    const negative = checkAndDecrement(budget({}, { ...ready, disruptionsAllowed: -1 }), 'a', false, NOW)
    expect('refused' in negative && negative.refused.message).toBe(
      'poddisruptionbudget.policy "web" is forbidden: pdb disruptions allowed is negative',
    )
  })
})

describe('budgetsForPod', () => {
  it('policy/v1: an empty selector covers every pod, a null or invalid one none', () => {
    const named = (name: string, selector: unknown) =>
      ({ ...budget({}), metadata: { name }, spec: { selector } }) as unknown as PDBObject
    const all = named('all', {})
    const none = named('none', undefined)
    const bad = named('bad', { matchExpressions: [{ key: 'app', operator: 'Bogus' }] })
    const web = named('web', { matchLabels: { app: 'web' } })
    const db = named('db', { matchLabels: { app: 'db' } })
    expect(budgetsForPod(pod('a'), [all, none, bad, web, db]).map((b) => b.metadata.name)).toEqual(['all', 'web'])
  })
})
