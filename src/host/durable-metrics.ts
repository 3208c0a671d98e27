// One Durable Object's metrics: its wake-ups, its group commits' sizes, how long its watch events took to leave, and
// its open watches and log follows as gauges (apiserver_registered_watchers, apiserver_longrunning_requests). They are
// flushed to D1 a few seconds after they change, while the object is awake anyway: the pending flush is the only
// thing that keeps it from hibernating that much longer, and a scrape reads D1 without waking it. Its gauges stay in
// D1 while it hibernates with its sockets open, which is exactly when they stay true.
import { MetricsStore } from '../log/metrics-store'
import {
  commitBatchSize,
  durableObjectWakes,
  longRunningRequests,
  registeredWatchers,
  watchEventDelivery,
} from '../metrics/definitions'
import type { GaugeValue } from '../metrics/metric-deltas'
import { flushIntervalMs, MetricsRecorder } from '../metrics/recorder'
import { COMPONENT } from '../metrics/request-labels'
import { resourceByPlural } from '../registry/resources'
import type { WatchSpec } from './watch-membership'

/** The Durable Object classes, as the metrics' `class` label names them. */
type DurableClass = 'NamespaceObject' | 'ClusterObject' | 'WatchHub'

/** What a host's metrics read from its sockets when they flush. */
interface SocketCensus {
  /** The specs of the open watch sockets. */
  watches(): WatchSpec[]
  /** How many pod log followers are open. */
  logFollowers(): number
}

export class DurableMetrics {
  private readonly recorder: MetricsRecorder
  private readonly store: MetricsStore

  constructor(
    ctx: DurableObjectState,
    env: Env,
    private readonly className: DurableClass,
    census: SocketCensus,
  ) {
    this.store = new MetricsStore(env.DB)
    this.recorder = new MetricsRecorder({
      source: `${className}:${ctx.id.toString()}`,
      gauges: () => socketGauges(className, census),
      gaugeTtlMs: null,
      intervalMs: flushIntervalMs(env),
    })
  }

  /** The object was constructed: a first start or a wake-up. */
  woke() {
    this.recorder.deltas.add(durableObjectWakes, [this.className])
    this.soon()
  }

  /** One group commit of `size` changes. */
  committed(size: number) {
    this.recorder.deltas.observe(commitBatchSize, [this.className], size)
    this.soon()
  }

  /** `events` watch events handed to sockets `seconds` after their commit began. */
  delivered(seconds: number, events: number) {
    this.recorder.deltas.observe(watchEventDelivery, [this.className], seconds, events)
    this.soon()
  }

  /** A watch or log follow opened or closed. */
  socketsChanged() {
    this.recorder.gaugesChanged()
    this.soon()
  }

  private soon() {
    this.recorder.flushSoon(this.store)?.catch((e: unknown) => console.error('metrics flush failed', e))
  }
}

/** The object's open watches and log follows as gauges, grouped by what kube files them under. */
function socketGauges(className: DurableClass, census: SocketCensus): GaugeValue[] {
  const watchers = new Map<string, GaugeValue>()
  const longRunning = new Map<string, GaugeValue>()
  // A namespace's watches are namespace-scoped requests; the cluster object's and the hub's are cluster-wide.
  const scope = className === 'NamespaceObject' ? 'namespace' : 'cluster'
  const bump = (map: Map<string, GaugeValue>, g: Omit<GaugeValue, 'value'>) => {
    const k = JSON.stringify(g.values)
    const found = map.get(k)
    if (found) found.value++
    else map.set(k, { ...g, value: 1 })
  }
  for (const spec of census.watches()) {
    const def = resourceByPlural(spec.resource)
    if (!def) continue
    bump(watchers, { family: registeredWatchers, values: [def.group, def.version, def.kind] })
    bump(longRunning, {
      family: longRunningRequests,
      values: ['WATCH', def.group, def.version, def.plural, '', scope, COMPONENT],
    })
  }
  const followers = census.logFollowers()
  const out = [...watchers.values(), ...longRunning.values()]
  if (followers > 0)
    out.push({
      family: longRunningRequests,
      values: ['CONNECT', '', 'v1', 'pods', 'log', 'resource', COMPONENT],
      value: followers,
    })
  return out
}
