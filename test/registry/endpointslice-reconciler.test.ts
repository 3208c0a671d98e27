// kube's EndpointSlice packing (src/registry/endpointslice-reconciler.ts): 100 endpoints per slice, one family of
// slices per port mapping, existing slices kept and topped up before new ones are made, creates taking over deletes,
// the placeholder slice.
import { describe, expect, it } from 'vitest'
import { planSlices, portMapKey, type ExistingSlice } from '../../src/registry/endpointslice-reconciler'
import type { SliceEndpoint, SlicePort } from '../../src/schema/endpoint-slice'

const HTTP: SlicePort[] = [{ name: 'http', port: 8080, protocol: 'TCP' }]
const ALT: SlicePort[] = [{ name: 'http', port: 9090, protocol: 'TCP' }]

const ep = (i: number, ready = true): SliceEndpoint => ({
  addresses: [`10.244.${Math.floor(i / 250)}.${(i % 250) + 2}`],
  conditions: { ready, serving: ready, terminating: false },
  targetRef: { kind: 'Pod', namespace: 'n', name: `p-${i}`, uid: `u-${i}` },
})
const range = (from: number, to: number) => Array.from({ length: to - from }, (_, k) => ep(from + k))
const slice = (name: string, endpoints: SliceEndpoint[], ports = HTTP, labelsCurrent = true): ExistingSlice => ({
  name,
  addressType: 'IPv4',
  ports,
  endpoints,
  labelsCurrent,
})
const names = (endpoints: SliceEndpoint[]) => endpoints.map((e) => e.targetRef!.name)

describe('planSlices', () => {
  it('250 endpoints and no slices: three new slices of 100, 100 and 50', () => {
    const plan = planSlices([], [{ ports: HTTP, endpoints: range(0, 250) }])
    expect(plan.update).toEqual([])
    expect(plan.delete).toEqual([])
    expect(plan.create.map((s) => s.endpoints.length)).toEqual([100, 100, 50])
    expect(plan.create.every((s) => s.ports === HTTP && s.name === undefined)).toBe(true)
    expect(plan.create.flatMap((s) => names(s.endpoints))).toEqual(names(range(0, 250)))
  })

  it('a settled service needs no writes', () => {
    const existing = [slice('a', range(0, 100)), slice('b', range(100, 200)), slice('c', range(200, 250))]
    expect(planSlices(existing, [{ ports: HTTP, endpoints: range(0, 250) }])).toEqual({
      create: [],
      update: [],
      delete: [],
    })
  })

  it('new endpoints go to the unchanged slice they fit best, not to a new slice', () => {
    const existing = [slice('a', range(0, 100)), slice('b', range(100, 190)), slice('c', range(190, 250))]
    const plan = planSlices(existing, [{ ports: HTTP, endpoints: range(0, 260) }])
    expect(plan.create).toEqual([])
    expect(plan.delete).toEqual([])
    // b (90 + 10 = 100) is closer to full than c (60 + 10).
    expect(plan.update.map((s) => [s.name, s.endpoints.length])).toEqual([['b', 100]])
  })

  it('a slice that lost endpoints is topped up with the new ones; changed endpoints update only their slice', () => {
    const existing = [slice('a', range(0, 100)), slice('b', range(100, 150))]
    const desired = [...range(3, 100), ...range(100, 150), ep(150), ep(151)]
    desired[50] = { ...desired[50]!, conditions: { ready: false, serving: false, terminating: false } }
    const plan = planSlices(existing, [{ ports: HTTP, endpoints: desired }])
    expect(plan.create).toEqual([])
    const a = plan.update.find((s) => s.name === 'a')!
    expect(a.endpoints).toHaveLength(99)
    expect(names(a.endpoints).slice(-2)).toEqual(['p-150', 'p-151'])
    expect(a.endpoints.find((e) => e.targetRef!.name === 'p-53')!.conditions?.ready).toBe(false)
    expect(plan.update.map((s) => s.name)).toEqual(['a'])
  })

  it('one family of slices per port mapping; a mapping no longer desired gives its slice to a new one', () => {
    const plan = planSlices(
      [],
      [
        { ports: HTTP, endpoints: range(0, 120) },
        { ports: ALT, endpoints: range(120, 125) },
      ],
    )
    expect(plan.create.map((s) => [s.ports, s.endpoints.length])).toEqual([
      [HTTP, 100],
      [HTTP, 20],
      [ALT, 5],
    ])
    // Every pod now resolves 9090: the 8080 slices would go and two new ones come; the creates take them over.
    const existing = [slice('a', range(0, 100)), slice('b', range(100, 120)), slice('c', range(120, 125), ALT)]
    const moved = planSlices(existing, [{ ports: ALT, endpoints: range(0, 125) }])
    expect(moved.create).toEqual([])
    expect(moved.delete).toEqual(['b'])
    expect(moved.update.map((s) => [s.name, s.ports, s.endpoints.length])).toEqual([
      // c keeps its 5 and takes the last 20; the first 100 go to a new slice, which takes over a.
      ['c', ALT, 25],
      ['a', ALT, 100],
    ])
  })

  it('port maps are equal whatever the order of their ports', () => {
    const two: SlicePort[] = [...HTTP, { name: 'm', port: 9100, protocol: 'TCP' }]
    expect(portMapKey(two)).toBe(portMapKey([...two].reverse()))
    expect(portMapKey(HTTP)).not.toBe(portMapKey(ALT))
  })

  it('no endpoints: a placeholder slice, kept when it is there, made of the last slice when pods go', () => {
    expect(planSlices([], [])).toEqual({ create: [{ ports: [], endpoints: [] }], update: [], delete: [] })
    const placeholder = slice('a', [], [])
    expect(planSlices([placeholder], [])).toEqual({ create: [], update: [], delete: [] })
    expect(planSlices([{ ...placeholder, labelsCurrent: false }], []).update).toEqual([
      { name: 'a', ports: [], endpoints: [] },
    ])
    const emptied = planSlices([slice('a', range(0, 3)), slice('b', range(3, 5))], [])
    expect(emptied).toEqual({ create: [], update: [{ name: 'a', ports: [], endpoints: [] }], delete: ['b'] })
    // The first pod fills the placeholder.
    const first = planSlices([placeholder], [{ ports: HTTP, endpoints: [ep(0)] }])
    expect(first).toEqual({ create: [], update: [{ name: 'a', ports: HTTP, endpoints: [ep(0)] }], delete: [] })
  })

  it('labels the service changed are written even when the endpoints did not change', () => {
    const plan = planSlices([slice('a', range(0, 2), HTTP, false)], [{ ports: HTTP, endpoints: range(0, 2) }])
    expect(plan.update.map((s) => s.name)).toEqual(['a'])
  })
})
