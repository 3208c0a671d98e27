// kube's EventCorrelator (client-go tools/record/events_cache.go), which every component's event recorder runs
// before it writes: events that differ only in their message are aggregated once ten of them came within ten
// minutes (one "(combined from similar events): …" Event whose count grows), an event seen before updates the
// count and last timestamp of the Event it made instead of making another, and a source may write 25 events about
// an object at once, then one every five minutes (the rest are dropped). Pure: the caller writes what it answers.
import type { KubeObject } from '../schema/meta'
import { rfc3339 } from './time'

type Obj = Record<string, any>

const LRU_ENTRIES = 4096
const AGGREGATE_MAX_EVENTS = 10
const AGGREGATE_INTERVAL_MS = 600_000
const SPAM_BURST = 25
const SPAM_QPS = 1 / 300

/** What to write for an event: nothing, a new Event, or new count, time and message for an existing one. */
type Correlated =
  | { skip: true }
  | { skip: false; create: KubeObject }
  | { skip: false; update: { name: string; count: number; lastTimestamp: string; message: string }; create: KubeObject }

/** A map that forgets its least recently used entry past a size (k8s.io/utils/lru). */
class Lru<V> {
  private readonly map = new Map<string, V>()
  constructor(private readonly size: number) {}
  get(key: string): V | undefined {
    const v = this.map.get(key)
    if (v !== undefined) {
      this.map.delete(key)
      this.map.set(key, v)
    }
    return v
  }
  add(key: string, value: V) {
    this.map.delete(key)
    this.map.set(key, value)
    if (this.map.size > this.size) this.map.delete(this.map.keys().next().value!)
  }
}

/** golang.org/x/time/rate's token bucket, asked without waiting (flowcontrol's passive limiter). */
class TokenBucket {
  private tokens = SPAM_BURST
  constructor(private last: number) {}
  tryAccept(now: number): boolean {
    this.tokens = Math.min(SPAM_BURST, this.tokens + ((now - this.last) / 1000) * SPAM_QPS)
    this.last = now
    if (this.tokens < 1) return false
    this.tokens -= 1
    return true
  }
}

interface Observation {
  count: number
  firstTimestamp: string
  name: string
}

const join = (parts: unknown[]) => parts.map((p) => (p === undefined || p === null ? '' : String(p))).join('')
const ref = (e: Obj) => e.involvedObject ?? {}
const source = (e: Obj) => e.source ?? {}

/** getEventKey: source, the object (with its field path), type, reason and message. */
const eventKey = (e: Obj) =>
  join([
    source(e).component,
    source(e).host,
    ref(e).kind,
    ref(e).namespace,
    ref(e).name,
    ref(e).fieldPath,
    ref(e).uid,
    ref(e).apiVersion,
    e.type,
    e.reason,
    e.message,
  ])

/** getSpamKey: source, the object and type. */
const spamKey = (e: Obj) =>
  join([
    source(e).component,
    source(e).host,
    ref(e).kind,
    ref(e).namespace,
    ref(e).name,
    ref(e).uid,
    ref(e).apiVersion,
    e.type,
  ])

/** EventAggregatorByReasonFunc: everything but the message, which is the local key. */
const aggregateKey = (e: Obj) =>
  join([
    source(e).component,
    source(e).host,
    ref(e).kind,
    ref(e).namespace,
    ref(e).name,
    ref(e).uid,
    ref(e).apiVersion,
    e.type,
    e.reason,
    e.reportingComponent,
    e.reportingInstance,
  ])

/** `<object>.<hex of the time in ns>`, as kube's util.GenerateEventName names aggregated events. */
const aggregateName = (objectName: string, nowMs: number) =>
  `${objectName}.${(BigInt(nowMs) * 1_000_000n + BigInt(Math.floor(Math.random() * 1_000_000))).toString(16)}`

export class EventCorrelator {
  private readonly spam = new Lru<TokenBucket>(LRU_ENTRIES)
  private readonly aggregates = new Lru<{ messages: Set<string>; last: number }>(LRU_ENTRIES)
  private readonly observed = new Lru<Observation>(LRU_ENTRIES)

  /** EventCorrelate: the event (as eventAbout builds it) aggregated, observed, then filtered. */
  correlate(input: KubeObject, nowMs: number): Correlated {
    const { event, key } = this.aggregate(input as Obj, nowMs)
    const last = this.observed.get(key)
    const ts = rfc3339(new Date(nowMs))
    let update: { name: string; count: number; lastTimestamp: string; message: string } | null = null
    if (last && last.count > 0) {
      event.metadata = { ...event.metadata, name: last.name }
      event.firstTimestamp = last.firstTimestamp
      event.count = last.count + 1
      update = { name: last.name, count: event.count, lastTimestamp: ts, message: event.message }
    }
    this.observed.add(key, { count: event.count, firstTimestamp: event.firstTimestamp, name: event.metadata.name })
    let bucket = this.spam.get(spamKey(event))
    if (!bucket) bucket = new TokenBucket(nowMs)
    const allowed = bucket.tryAccept(nowMs)
    this.spam.add(spamKey(event), bucket)
    if (!allowed) return { skip: true }
    return update ? { skip: false, update, create: event as KubeObject } : { skip: false, create: event as KubeObject }
  }

  /** UpdateState: what the server stored (its name and count) is what the next repeat builds on. */
  stored(event: KubeObject) {
    const e = event as Obj
    this.observed.add(eventKey(e), { count: e.count ?? 1, firstTimestamp: e.firstTimestamp, name: e.metadata.name })
  }

  /** EventAggregate: the event itself, or once ten messages of one kind came, the aggregate standing for them. */
  private aggregate(e: Obj, nowMs: number): { event: Obj; key: string } {
    const aKey = aggregateKey(e)
    let record = this.aggregates.get(aKey)
    if (!record || nowMs - record.last > AGGREGATE_INTERVAL_MS) record = { messages: new Set(), last: 0 }
    record.messages.add(e.message)
    record.last = nowMs
    this.aggregates.add(aKey, record)
    if (record.messages.size < AGGREGATE_MAX_EVENTS) return { event: { ...e }, key: eventKey(e) }
    // sets.String.PopAny: drop one of the messages, so the set stays at the threshold.
    record.messages.delete(record.messages.values().next().value!)
    const ts = rfc3339(new Date(nowMs))
    return {
      event: {
        kind: 'Event',
        apiVersion: 'v1',
        metadata: { name: aggregateName(ref(e).name ?? '', nowMs), namespace: e.metadata?.namespace },
        involvedObject: e.involvedObject,
        reason: e.reason,
        message: `(combined from similar events): ${e.message}`,
        source: e.source,
        firstTimestamp: ts,
        lastTimestamp: ts,
        count: 1,
        type: e.type,
      },
      key: aKey,
    }
  }
}
