// The simulated kubelet's delays (src/namespace/kubelet-delays.ts): when a pod's start or stop falls due.
import { describe, expect, it } from 'vitest'
import { stageDueAt } from '../../src/namespace/kubelet-delays'

const delays = { startDelayMs: 500, stopDelayMs: 500 }
const at = (ms: number) => new Date(ms).toISOString()

describe('stageDueAt', () => {
  it('a scheduled pod starts startDelayMs after PodScheduled=True (its creation when there is none)', () => {
    const pod = {
      metadata: { creationTimestamp: at(0) },
      status: {
        phase: 'Pending',
        conditions: [{ type: 'PodScheduled', status: 'True', lastTransitionTime: at(1000) }],
      },
    }
    expect(stageDueAt(pod, 1200, delays)).toBe(1500)
    expect(stageDueAt(pod, 1500, delays)).toBeNull()
    expect(stageDueAt({ metadata: { creationTimestamp: at(0) } }, 100, delays)).toBe(500)
    // Started or finished: nothing waits on the start delay.
    expect(stageDueAt({ ...pod, status: { phase: 'Running' } }, 0, delays)).toBeNull()
  })

  it('a deleted pod stops stopDelayMs into its grace period, never after its deletionTimestamp', () => {
    const deleted = (grace: number) => ({
      metadata: { deletionTimestamp: at(10_000), deletionGracePeriodSeconds: grace },
      status: { phase: 'Running' },
    })
    // Deleted at 0 with 10 s of grace: due at 500.
    expect(stageDueAt(deleted(10), 100, delays)).toBe(500)
    expect(stageDueAt(deleted(10), 600, delays)).toBeNull()
    // No grace: due at the deletionTimestamp itself.
    expect(stageDueAt(deleted(0), 9_000, delays)).toBe(10_000)
  })
})
