// This isolate's request metrics: apiserver_request_total and apiserver_request_duration_seconds per request,
// apiserver_flowcontrol_rejected_requests_total per rate-limited request, and apiserver_current_inflight_requests
// (the most requests in flight at once since the last flush, per kind) as a gauge that expires when the isolate
// stops refreshing it. Flushed to D1 at most once per interval, kept alive by the request that scheduled it.
import { MetricsStore } from '../log/metrics-store'
import { currentInflightRequests, flowcontrolRejected, requestDuration, requestTotal } from '../metrics/definitions'
import { flushIntervalMs, MetricsRecorder } from '../metrics/recorder'
import { type RequestLabels, requestDurationValues, requestTotalValues } from '../metrics/request-labels'

/** An isolate's gauges count this long after its last flush: long enough to span idle gaps, short after it dies. */
const GAUGE_TTL_MS = 60_000

/** kube's rate limits are API Priority and Fairness levels; ours is one per-identity limit. */
const PRIORITY_LEVEL = 'kubeflare-per-identity'
const REJECT_REASON = 'rate-limited'

class Inflight {
  private readonly now = { readOnly: 0, mutating: 0 }
  private readonly peak = { readOnly: 0, mutating: 0 }

  start(kind: keyof Inflight['now']) {
    this.now[kind]++
    this.peak[kind] = Math.max(this.peak[kind], this.now[kind])
  }

  end(kind: keyof Inflight['now']) {
    this.now[kind]--
  }

  /** The peaks since the last call, which restarts them from what is in flight now. */
  takePeaks() {
    const out = [
      { family: currentInflightRequests, values: ['mutating'], value: this.peak.mutating },
      { family: currentInflightRequests, values: ['readOnly'], value: this.peak.readOnly },
    ]
    this.peak.readOnly = this.now.readOnly
    this.peak.mutating = this.now.mutating
    return out
  }
}

class IsolateMetrics {
  readonly inflight = new Inflight()
  readonly recorder: MetricsRecorder

  constructor(intervalMs: number) {
    this.recorder = new MetricsRecorder({
      source: `isolate:${crypto.randomUUID()}`,
      gauges: () => this.inflight.takePeaks(),
      gaugeTtlMs: GAUGE_TTL_MS,
      intervalMs,
    })
  }

  /** One request answered with `code` after `seconds`; `rateLimited` names the flow whose limit refused it. */
  request(labels: RequestLabels, code: number, seconds: number, rateLimited?: string) {
    const d = this.recorder.deltas
    d.add(requestTotal, requestTotalValues(labels, code))
    d.observe(requestDuration, requestDurationValues(labels), seconds)
    if (rateLimited) d.add(flowcontrolRejected, [PRIORITY_LEVEL, rateLimited, REJECT_REASON])
  }

  /** A flush once the interval allows: the promise to keep the invocation alive for, or null if one is due anyway. */
  flushSoon(env: Env): Promise<void> | null {
    return this.recorder.flushSoon(new MetricsStore(env.DB))
  }

  /** Everything this isolate has counted, written now (a scrape sees its own isolate exactly). */
  flushNow(env: Env): Promise<void> {
    return this.recorder.flush(new MetricsStore(env.DB))
  }
}

let instance: IsolateMetrics | null = null

export function isolateMetrics(env: Env): IsolateMetrics {
  instance ??= new IsolateMetrics(flushIntervalMs(env))
  return instance
}
