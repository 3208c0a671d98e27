// The in-memory alarms run the shared alarms case suite, plus the ring() that tests use in place of the runtime.
import { describe, expect, it } from 'vitest'
import { MemoryAlarms } from '../../src/host/alarms'
import { alarmsCases } from './alarms.cases'

alarmsCases('memory', (fn) => fn(new MemoryAlarms()))

describe('MemoryAlarms.ring', () => {
  it('answers the time set and clears it, as a Durable Object clears its alarm before the handler runs', async () => {
    const alarms = new MemoryAlarms()
    expect(alarms.ring()).toBeNull()
    await alarms.wakeAt(2_000)
    await alarms.wakeAt(1_000)
    expect(alarms.ring()).toBe(1_000)
    expect(await alarms.next()).toBeNull()
    // Cleared, a later time is taken again.
    await alarms.wakeAt(5_000)
    expect(await alarms.next()).toBe(5_000)
  })
})
