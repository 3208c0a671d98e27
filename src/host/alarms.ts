// A host's one wake-up time: asking to be woken no later than a moment keeps an earlier request. DurableAlarms is the
// Durable Object's alarm; MemoryAlarms its twin, which tests advance by hand.
export interface Alarms {
  /** Asks for a wake-up at `at` (ms since epoch), keeping one already set sooner. */
  wakeAt(at: number): Promise<void>
  /** The wake-up time set, or null. */
  next(): Promise<number | null>
}

export class DurableAlarms implements Alarms {
  constructor(private readonly storage: DurableObjectStorage) {}

  async wakeAt(at: number): Promise<void> {
    const current = await this.storage.getAlarm()
    if (current === null || current > at) await this.storage.setAlarm(at)
  }

  next(): Promise<number | null> {
    return this.storage.getAlarm()
  }
}

export class MemoryAlarms implements Alarms {
  private at: number | null = null

  async wakeAt(at: number): Promise<void> {
    if (this.at === null || this.at > at) this.at = at
  }

  async next(): Promise<number | null> {
    return this.at
  }

  /** The alarm rang: it is cleared, as a Durable Object's is before its alarm handler runs. */
  ring(): number | null {
    const at = this.at
    this.at = null
    return at
  }
}
