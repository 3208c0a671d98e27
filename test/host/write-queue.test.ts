// Group commit: overlapping writers share D1 batches (the queue lingers for them), a lone writer never waits.
import { describe, expect, it } from 'vitest'
import { WriteQueue, type JobPlan, type WriteQueueHooks } from '../../src/host/write-queue'
import type { Change } from '../../src/registry/store'
import type { LogEntry } from '../../src/registry/store'

const change = (name: string): Change => ({
  type: 'ADDED',
  resource: 'pods',
  namespace: 'ns',
  name,
  object: { apiVersion: 'v1', kind: 'Pod', metadata: { name } },
  prev: null,
  prevRv: null,
})

/** A queue over an in-memory log; `hold` makes the next commit wait until released. */
function harness(lingerMs: number) {
  const batches: string[][] = []
  let rv = 0
  let gate: { wait: Promise<void>; open: () => void } | null = null
  const hooks: WriteQueueHooks = {
    catchUp: async () => undefined,
    commit: async (changes) => {
      batches.push(changes.map((c) => c.name))
      if (gate) await gate.wait
      return changes.map(() => ++rv)
    },
    applied: () => undefined,
    recover: async () => null,
    commitFailed: (e) => e,
  }
  const queue = new WriteQueue(hooks, lingerMs)
  const write = (name: string) =>
    queue.submit((): JobPlan<number> => ({ changes: [change(name)], finish: (entries: LogEntry[]) => entries[0]!.rv }))
  const hold = () => {
    let open!: () => void
    const wait = new Promise<void>((r) => (open = r))
    gate = {
      wait,
      open: () => {
        gate = null
        open()
      },
    }
    return gate.open
  }
  return { batches, write, hold }
}

describe('write queue group commit', () => {
  it('a lone writer is never held back by the linger', async () => {
    // A linger this long would time the test out if a sequential writer ever waited for it.
    const h = harness(60_000)
    for (let i = 0; i < 5; i++) expect(await h.write(`p${i}`)).toBe(i + 1)
    expect(h.batches).toEqual([['p0'], ['p1'], ['p2'], ['p3'], ['p4']])
  })

  it('once writes overlap, the next flush lingers and carries the late arrivals with the queued ones', async () => {
    const h = harness(200)
    const release = h.hold()
    const first = h.write('a')
    await new Promise((r) => setTimeout(r, 0))
    // Queued while a's commit is in flight: the writes overlap.
    const second = h.write('b')
    release()
    expect(await first).toBe(1)
    // Arrives a timer turn after a's flush ended, within the linger: it joins b's batch instead of paying its own.
    // (Without the linger, b's flush would have gone on the first timer turn, alone.)
    await new Promise((r) => setTimeout(r, 20))
    const third = h.write('c')
    expect(await Promise.all([second, third])).toEqual([2, 3])
    expect(h.batches).toEqual([['a'], ['b', 'c']])
  })

  it('answers every write in order with its own resourceVersion when many overlap', async () => {
    const h = harness(1)
    const results = await Promise.all(Array.from({ length: 100 }, (_, i) => h.write(`w${i}`)))
    expect(results).toEqual(Array.from({ length: 100 }, (_, i) => i + 1))
    expect(h.batches.flat()).toEqual(Array.from({ length: 100 }, (_, i) => `w${i}`))
    expect(h.batches.length).toBeLessThan(100)
  })
})
