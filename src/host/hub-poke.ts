// Telling the cluster-wide watch hub (src/cluster/watch-hub.ts) that a host committed.

export class HubPoke {
  private inFlight: Promise<void> | null = null
  private again = false

  constructor(private readonly env: Env) {}

  /**
   * Tells the cluster-wide watch hub there is more in the D1 log. It reads everything after its cursor, so under
   * load one poke in flight (plus one after it) covers any number of commits: no RPC per commit.
   */
  poke(): void {
    if (this.inFlight) {
      this.again = true
      return
    }
    this.inFlight = this.env.WATCH_HUB.getByName('hub')
      .poke()
      .catch((e: unknown) => console.error('poking the watch hub failed', e))
      .finally(() => {
        this.inFlight = null
        if (this.again) {
          this.again = false
          this.poke()
        }
      })
  }
}
