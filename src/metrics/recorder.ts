// One source's metrics (an isolate's, or one Durable Object's): counter and histogram deltas kept in memory and
// flushed to a sink at most once per interval, as one write, together with the source's gauges. A scrape reads only
// what sources have flushed, so it never wakes a Durable Object; what a source has not flushed yet is the lag.
import { type GaugeValue, gaugeRows, MetricDeltas, type MetricRow } from './metric-deltas'

/** Where flushed rows go (src/log/metrics-store.ts writes them to D1 in one statement). */
interface MetricSink {
  write(rows: MetricRow[]): Promise<void>
}

interface RecorderOptions {
  /** This source's id: its gauge rows are keyed by it. */
  source: string
  /** The source's gauges as they are when a flush is written. */
  gauges?: () => GaugeValue[]
  /** How long written gauges count (an isolate's, which may die without a word); null: until written again. */
  gaugeTtlMs: number | null
  /** Flushes are at least this far apart (0: as soon as the event loop turns). */
  intervalMs: number
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

export class MetricsRecorder {
  readonly deltas = new MetricDeltas()
  private inFlight: Promise<void> | null = null
  private scheduled: Promise<void> | null = null
  private lastFlush = 0
  /** Gauges are written when they may have changed, and always when they expire unless refreshed. */
  private gaugesDirty = true

  constructor(private readonly opts: RecorderOptions) {}

  /** The gauges may have changed (a watcher came or went): the next flush writes them. */
  gaugesChanged() {
    this.gaugesDirty = true
  }

  /** Writes what is pending now, after any flush already under way. A failed write is kept for the next flush. */
  async flush(sink: MetricSink): Promise<void> {
    while (this.inFlight) await this.inFlight
    const rows = this.deltas.drain()
    const gauges = this.opts.gauges && (this.gaugesDirty || this.opts.gaugeTtlMs !== null)
    if (gauges) {
      const expires = this.opts.gaugeTtlMs === null ? null : Date.now() + this.opts.gaugeTtlMs
      rows.push(...gaugeRows(this.opts.source, this.opts.gauges!(), expires))
      this.gaugesDirty = false
    }
    if (rows.length === 0) return
    this.lastFlush = Date.now()
    this.inFlight = sink
      .write(rows)
      .catch((e: unknown) => {
        console.error('metrics flush failed; kept for the next one', e)
        this.deltas.restore(rows)
        if (gauges) this.gaugesDirty = true
      })
      .finally(() => {
        this.inFlight = null
      })
    await this.inFlight
  }

  /**
   * A flush once the interval since the last one has passed. Answers the promise to keep the invocation alive for
   * (ctx.waitUntil), or null when a flush is already scheduled and will carry what was recorded since.
   */
  flushSoon(sink: MetricSink): Promise<void> | null {
    if (this.scheduled) return null
    const wait = Math.max(0, this.lastFlush + this.opts.intervalMs - Date.now())
    this.scheduled = sleep(wait).then(() => {
      this.scheduled = null
      return this.flush(sink)
    })
    return this.scheduled
  }
}

/**
 * How often a source flushes: KUBEFLARE_METRICS_FLUSH_MS (default 5 s; the unit tests use 0). Each active isolate
 * and Durable Object writes at most one statement per interval.
 */
export function flushIntervalMs(env: { KUBEFLARE_METRICS_FLUSH_MS?: string }): number {
  const text = env.KUBEFLARE_METRICS_FLUSH_MS
  const n = Number(text)
  return text !== undefined && text !== '' && Number.isFinite(n) && n >= 0 ? n : 5_000
}
