// The kubelet's restart back-off: immediate first restart, then doubling from the initial delay to the cap, counted
// from each exit; a container that stayed up for twice the cap starts over.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { Backoff } from '../../agent/backoff.ts'

describe('Backoff', () => {
  it('restarts at once, then after 10s, 20s, 40s … capped at 5m', () => {
    let now = 0
    const b = new Backoff(10_000, 300_000, () => now)
    const waits = []
    for (let i = 0; i < 8; i++) {
      const finishedAt = now
      const at = b.restartAt('p/c', finishedAt)
      waits.push(at - finishedAt)
      now = at
      b.next('p/c', finishedAt)
    }
    assert.deepEqual(waits, [0, 10_000, 20_000, 40_000, 80_000, 160_000, 300_000, 300_000])
  })

  it('reports the delay the kubelet names in CrashLoopBackOff', () => {
    const b = new Backoff(10_000, 300_000, () => 0)
    assert.equal(b.delay('k'), 10_000)
    b.next('k', 0)
    b.next('k', 0)
    assert.equal(b.delay('k'), 20_000)
  })

  it('starts over after a run longer than twice the cap', () => {
    let now = 0
    const b = new Backoff(10_000, 300_000, () => now)
    b.next('k', 0)
    b.next('k', 0)
    now = 700_000
    assert.equal(b.restartAt('k', now), now)
    b.next('k', now)
    assert.equal(b.delay('k'), 10_000)
  })

  it('forgets a pod', () => {
    const b = new Backoff(10_000, 300_000, () => 0)
    b.next('uid/a', 0)
    b.next('other/a', 0)
    b.forget('uid/')
    assert.equal(b.restartAt('uid/a', 5), 5)
    assert.equal(b.restartAt('other/a', 5), 10_005)
  })
})
