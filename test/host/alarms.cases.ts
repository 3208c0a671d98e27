// One behaviour suite for a host's wake-up time (src/host/alarms.ts), run against the Durable Object alarm and the
// in-memory twin alike (durable-alarms.test.ts, memory-alarms.test.ts).
import { describe, expect, it } from 'vitest'
import type { Alarms } from '../../src/host/alarms'

/** Runs `fn` with alarms of a host that has none set yet. */
export type WithAlarms = (fn: (alarms: Alarms) => Promise<void>) => Promise<void>

/** Well in the future, so a real Durable Object alarm never rings during a case. */
const base = () => Date.now() + 3_600_000

export function alarmsCases(implementation: string, withAlarms: WithAlarms) {
  describe(`${implementation}: alarms`, () => {
    it('has no wake-up time until one is asked for', () =>
      withAlarms(async (alarms) => {
        expect(await alarms.next()).toBeNull()
        const at = base()
        await alarms.wakeAt(at)
        expect(await alarms.next()).toBe(at)
      }))

    it('keeps the earliest time asked for: a later one leaves it, a sooner one replaces it', () =>
      withAlarms(async (alarms) => {
        const t = base()
        await alarms.wakeAt(t + 5_000)
        await alarms.wakeAt(t + 9_000)
        expect(await alarms.next()).toBe(t + 5_000)
        await alarms.wakeAt(t + 1_000)
        expect(await alarms.next()).toBe(t + 1_000)
        await alarms.wakeAt(t + 1_000)
        expect(await alarms.next()).toBe(t + 1_000)
        await alarms.wakeAt(t + 3_000)
        expect(await alarms.next()).toBe(t + 1_000)
      }))

    it('keeps the earliest of requests made one after another in any order', () =>
      withAlarms(async (alarms) => {
        const t = base()
        for (const d of [7_000, 2_000, 9_000, 4_000, 2_500]) await alarms.wakeAt(t + d)
        expect(await alarms.next()).toBe(t + 2_000)
      }))

    // A host asks from places that do not wait for each other (the post-commit schedule and controllers it does not
    // await), so requests in flight together must still leave the earliest.
    it('keeps the earliest of requests in flight together', () =>
      withAlarms(async (alarms) => {
        const t = base()
        await Promise.all([alarms.wakeAt(t + 2_000), alarms.wakeAt(t + 7_000)])
        expect(await alarms.next()).toBe(t + 2_000)
        await Promise.all([alarms.wakeAt(t + 1_500), alarms.wakeAt(t + 1_000), alarms.wakeAt(t + 1_800)])
        expect(await alarms.next()).toBe(t + 1_000)
      }))
  })
}
