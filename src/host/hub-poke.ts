// Telling the cluster-wide watch hub (src/cluster/watch-hub.ts) that a host committed.

/**
 * While the hub's last answer was that nobody watches through it, a host pokes it at most once per this many ms
 * (each poke is a Durable Object call; a busy namespace commits every few ms). A watch starting meanwhile replays
 * from its resourceVersion when it joins, so what this delays is only its first live events, by at most this.
 */
const IDLE_POKE_MS = 50

export class HubPoke {
  private inFlight: Promise<void> | null = null
  private again = false
  /** Whether the hub had watchers at its last answer (assumed so until it has answered). */
  private watched = true
  private timer: ReturnType<typeof setTimeout> | null = null

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
    if (this.watched) {
      this.send()
      return
    }
    this.timer ??= setTimeout(() => {
      this.timer = null
      this.send()
    }, IDLE_POKE_MS)
  }

  private send(): void {
    this.inFlight = this.env.WATCH_HUB.getByName('hub')
      .poke()
      .then((watched) => {
        // An older hub answers nothing: take that as watched (poke on every commit, as before).
        this.watched = watched !== false
      })
      .catch((e: unknown) => {
        this.watched = true
        console.error('poking the watch hub failed', e)
      })
      .finally(() => {
        this.inFlight = null
        if (this.again) {
          this.again = false
          this.poke()
        }
      })
  }
}
