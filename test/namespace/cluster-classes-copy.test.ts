// The namespace's copy of the cluster's classes: fetched once, served while fresh, fetched again when the cluster
// object says a class changed or when it grew old; a fetch answered across a change does not count as fresh.
import { describe, expect, it } from 'vitest'
import type { ClusterApi } from '../../src/cluster/cluster-api'
import type { Snapshot } from '../../src/host/rpc-types'
import { ClusterClasses } from '../../src/namespace/cluster-classes'

function fakeCluster() {
  const calls: { ns: string; since?: number }[] = []
  let version = 1
  let gate: Promise<void> | null = null
  const api = {
    async classes(ns: string, since?: number): Promise<Snapshot> {
      calls.push({ ns, since })
      const v = version
      if (gate) await gate
      return { version: v, objects: since === v ? null : { priorityclasses: [{ metadata: { name: `pc-${v}` } }] } }
    },
  }
  return {
    cluster: () => api as unknown as ClusterApi,
    calls,
    bump: () => version++,
    hold: () => {
      let open!: () => void
      gate = new Promise((r) => {
        open = r
      })
      return () => {
        gate = null
        open()
      }
    },
  }
}

describe('ClusterClasses', () => {
  it('fetches once and serves the copy while it is fresh', async () => {
    const f = fakeCluster()
    let now = 1000
    const classes = new ClusterClasses(f.cluster, 'team', () => now)
    await classes.current()
    await classes.current()
    now += 4000
    await classes.current()
    expect(f.calls).toEqual([{ ns: 'team', since: undefined }])
    expect(classes.all('priorityclasses').map((c) => c.metadata.name)).toEqual(['pc-1'])
    now += 1001
    await classes.current()
    expect(f.calls.length).toBe(2)
    expect(f.calls[1]).toEqual({ ns: 'team', since: 1 })
  })

  it('fetches again after the cluster object tells of a change', async () => {
    const f = fakeCluster()
    const classes = new ClusterClasses(f.cluster, 'team', () => 0)
    await classes.current()
    f.bump()
    classes.invalidate()
    await classes.current()
    expect(f.calls.length).toBe(2)
    expect(classes.all('priorityclasses').map((c) => c.metadata.name)).toEqual(['pc-2'])
    await classes.current()
    expect(f.calls.length).toBe(2)
  })

  it('a fetch answered across a change is not fresh', async () => {
    const f = fakeCluster()
    const classes = new ClusterClasses(f.cluster, 'team', () => 0)
    const open = f.hold()
    const first = classes.current()
    // The change is told while the fetch is on its way: its answer may predate the change.
    f.bump()
    classes.invalidate()
    open()
    await first
    await classes.current()
    expect(f.calls.length).toBe(2)
    expect(classes.all('priorityclasses').map((c) => c.metadata.name)).toEqual(['pc-2'])
  })
})
