// A D1 list reads its snapshot rv, the past states and the rows in separate statements while other namespaces keep
// committing. Objects that existed at the snapshot must be listed as they were then, whatever lands in between.
import { describe, expect, it } from 'vitest'
import { listObjects, type ListItem, type ListSource, type PastState } from '../../src/registry/list'
import { pastStates } from '../../src/registry/list'
import { parseLabelSelector } from '../../src/registry/label-selector'

type Change = {
  key: string
  type: 'ADDED' | 'MODIFIED' | 'DELETED'
  prev: string | null
  prevRv: number | null
  rv: number
}
const json = (name: string, v: string) =>
  JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'a', labels: { v } } })

/** Rows p0..p2 at rv 5, p9 created at rv 11; `during` runs once, right after the first scan chunk is requested. */
function racingSource(
  during: (rows: Map<string, { rv: number; json: string }>, changes: Change[]) => void,
  opts: { every?: boolean } = {},
) {
  const rows = new Map<string, { rv: number; json: string }>()
  for (const n of ['p0', 'p1', 'p2']) rows.set(n, { rv: 5, json: json(n, 'old') })
  rows.set('p9', { rv: 11, json: json('p9', 'new') })
  const changes: Change[] = [{ key: 'p9', type: 'ADDED', prev: null, prevRv: null, rv: 11 }]
  let scans = 0
  const source: ListSource = {
    currentRv: 11,
    floorRv: 0,
    async scan(after, n): Promise<ListItem[]> {
      if (scans++ === 0 || opts.every) during(rows, changes)
      return [...rows.entries()]
        .filter(([k]) => after === null || k > after)
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .slice(0, n)
        .map(([k, r]) => ({
          key: k,
          rv: r.rv,
          labels: JSON.parse(r.json).metadata.labels,
          load: () => JSON.parse(r.json),
        }))
    },
    async count(after) {
      return [...rows.keys()].filter((k) => after === null || k > after).length
    },
    async changedSince(rv, after): Promise<Map<string, PastState>> {
      return pastStates(
        changes.filter((c) => c.rv > rv),
        after,
      )
    },
  }
  return source
}

const parse = (s: string) => {
  const r = parseLabelSelector(s)
  if (!r.ok) throw new Error(r.message)
  return r.selector
}
const strategy = { selectableFields: () => ({}) } as never
const names = (page: Awaited<ReturnType<typeof listObjects>>) =>
  page.ok ? page.value.items.map((o) => [o.metadata.name, o.metadata.labels?.v]) : page

describe('a list over a source that other writers change between its reads', () => {
  it('keeps an object modified after the past states were read, in its state at the snapshot', async () => {
    let rv = 11
    const source = racingSource((rows, changes) => {
      const old = rows.get('p1')!
      rows.set('p1', { rv: ++rv, json: json('p1', 'changed') })
      changes.push({ key: 'p1', type: 'MODIFIED', prev: old.json, prevRv: old.rv, rv })
    })
    const page = await listObjects(source, strategy, { mode: { kind: 'exact', rv: 10 } })
    expect(names(page)).toEqual([
      ['p0', 'old'],
      ['p1', 'old'],
      ['p2', 'old'],
    ])
  })

  it('keeps an object deleted while the scan ran', async () => {
    const source = racingSource((rows, changes) => {
      const old = rows.get('p1')!
      rows.delete('p1')
      changes.push({ key: 'p1', type: 'DELETED', prev: old.json, prevRv: old.rv, rv: 12 })
    })
    const page = await listObjects(source, strategy, { mode: { kind: 'exact', rv: 10 } })
    expect(names(page)).toEqual([
      ['p0', 'old'],
      ['p1', 'old'],
      ['p2', 'old'],
    ])
  })

  it('keeps an object deleted while a list at the newest resourceVersion ran (no past states loaded up front)', async () => {
    const source = racingSource((rows, changes) => {
      const old = rows.get('p0')!
      rows.delete('p0')
      changes.push({ key: 'p0', type: 'DELETED', prev: old.json, prevRv: old.rv, rv: 12 })
    })
    const page = await listObjects(source, strategy, { mode: { kind: 'latest' } })
    expect(page.ok && page.value.resourceVersion).toBe(11)
    expect(names(page)).toEqual([
      ['p0', 'old'],
      ['p1', 'old'],
      ['p2', 'old'],
      ['p9', 'new'],
    ])
  })

  it('does not rescan for objects merely created meanwhile, and leaves them out', async () => {
    let created = 0
    const source = racingSource(
      (rows, changes) => {
        const n = `p${5 + created++}`
        rows.set(n, { rv: 20 + created, json: json(n, 'late') })
        changes.push({ key: n, type: 'ADDED', prev: null, prevRv: null, rv: 20 + created })
      },
      { every: true },
    )
    const page = await listObjects(source, strategy, { mode: { kind: 'latest' } })
    expect(names(page)).toEqual([
      ['p0', 'old'],
      ['p1', 'old'],
      ['p2', 'old'],
      ['p9', 'new'],
    ])
    expect(created).toBe(1)
  })

  it('merges a missed object into a limited page in key order and pushes the overflow to the next page', async () => {
    const source = racingSource((rows, changes) => {
      const old = rows.get('p0')!
      rows.delete('p0')
      changes.push({ key: 'p0', type: 'DELETED', prev: old.json, prevRv: old.rv, rv: 12 })
    })
    const page = await listObjects(source, strategy, { mode: { kind: 'latest' }, limit: 2 })
    expect(names(page)).toEqual([
      ['p0', 'old'],
      ['p1', 'old'],
    ])
    if (!page.ok) return
    expect(page.value.continue).toBeTruthy()
    // p2 and p9 remain: p0's live row is gone, which the count must not subtract twice.
    expect(page.value.remainingItemCount).toBe(2)
    const next = await listObjects(source, strategy, { mode: { kind: 'continue', token: page.value.continue! } })
    expect(names(next)).toEqual([
      ['p2', 'old'],
      ['p9', 'new'],
    ])
  })

  it('leaves out a missed object the label selector does not match', async () => {
    const source = racingSource((rows, changes) => {
      const old = rows.get('p1')!
      rows.delete('p1')
      changes.push({ key: 'p1', type: 'DELETED', prev: json('p1', 'other'), prevRv: old.rv, rv: 12 })
    })
    const page = await listObjects(source, strategy, { mode: { kind: 'latest' }, labelSelector: parse('v=old') })
    expect(names(page)).toEqual([
      ['p0', 'old'],
      ['p2', 'old'],
    ])
  })
})
