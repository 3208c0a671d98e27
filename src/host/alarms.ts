// A host's one wake-up time: asking to be woken no later than a moment keeps an earlier request. DurableAlarms is the
// Durable Object's alarm; MemoryAlarms its twin, which tests advance by hand.
export interface Alarms {
  /** Asks for a wake-up at `at` (ms since epoch), keeping one already set sooner. */
  wakeAt(at: number): Promise<void>
  /** The wake-up time set, or null. */
  next(): Promise<number | null>
}

export class DurableAlarms implements Alarms {
  /** Requests run one after another: two that read the old alarm together would let the later time win. */
  private chain: Promise<void> = Promise.resolve()

  constructor(private readonly storage: DurableObjectStorage) {}

  wakeAt(at: number): Promise<void> {
    const run = async () => {
      const current = await this.storage.getAlarm()
      if (current === null || current > at) await this.storage.setAlarm(at)
    }
    this.chain = this.chain.then(run, run)
    return this.chain
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
