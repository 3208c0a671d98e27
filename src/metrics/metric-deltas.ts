// What one source (an isolate, or one Durable Object) has counted since its last flush: counter increments and
// histogram observations as deltas, which the metrics table adds up across every source. A histogram keeps one
// array of bucket counts per series while it accumulates and becomes Prometheus's cumulative `_bucket{le}`, `_sum`
// and `_count` rows only when drained.
import type { MetricFamily } from './definitions'
import { goFloat } from './go-float'

/**
 * One row for the metrics table: [source, series name, label values (JSON array), value, expires]. Source '' is a
 * counter delta (added to the sum of all sources); any other source's rows are its gauges (they replace what that
 * source wrote before; expires, in ms since the epoch, ends an isolate's gauges when it stops refreshing them).
 * A row named '' is the marker that clears the source's previous gauges.
 */
export type MetricRow = [source: string, name: string, labels: string, value: number, expires: number | null]

/** A gauge's current value, as a source reports it when it flushes. */
export interface GaugeValue {
  family: MetricFamily
  values: readonly string[]
  value: number
}

interface HistogramSeries {
  family: MetricFamily
  labels: readonly string[]
  /** Observations per bucket (not cumulative); the last slot is +Inf. */
  counts: number[]
  sum: number
  count: number
}

const key = (name: string, labels: string) => `${name}\u0000${labels}`

export class MetricDeltas {
  /** Counter deltas by series: name, label JSON and value. */
  private readonly counters = new Map<string, { name: string; labels: string; value: number }>()
  private readonly histograms = new Map<string, HistogramSeries>()

  get empty(): boolean {
    return this.counters.size === 0 && this.histograms.size === 0
  }

  /** Adds to a counter. `values` follow the family's label order. */
  add(family: MetricFamily, values: readonly string[], by = 1) {
    this.addRow(family.name, JSON.stringify(values), by)
  }

  /** Records `weight` observations of `value` in a histogram. */
  observe(family: MetricFamily, values: readonly string[], value: number, weight = 1) {
    const labels = JSON.stringify(values)
    let series = this.histograms.get(labels + family.name)
    if (!series) {
      series = {
        family,
        labels: values,
        counts: new Array((family.buckets?.length ?? 0) + 1).fill(0),
        sum: 0,
        count: 0,
      }
      this.histograms.set(labels + family.name, series)
    }
    const buckets = family.buckets ?? []
    let i = 0
    while (i < buckets.length && value > buckets[i]!) i++
    series.counts[i]! += weight
    series.sum += value * weight
    series.count += weight
  }

  /** Takes every delta out as counter rows (source ''). */
  drain(): MetricRow[] {
    const rows: MetricRow[] = []
    for (const c of this.counters.values()) rows.push(['', c.name, c.labels, c.value, null])
    for (const h of this.histograms.values()) {
      const name = h.family.name
      let cumulative = 0
      const buckets = h.family.buckets ?? []
      for (let i = 0; i <= buckets.length; i++) {
        cumulative += h.counts[i]!
        const le = i < buckets.length ? goFloat(buckets[i]!) : '+Inf'
        rows.push(['', `${name}_bucket`, JSON.stringify([...h.labels, le]), cumulative, null])
      }
      rows.push(['', `${name}_sum`, JSON.stringify(h.labels), h.sum, null])
      rows.push(['', `${name}_count`, JSON.stringify(h.labels), h.count, null])
    }
    this.counters.clear()
    this.histograms.clear()
    return rows
  }

  /** Puts back counter rows a failed flush took out, so the next flush carries them. */
  restore(rows: readonly MetricRow[]) {
    for (const [source, name, labels, value] of rows) if (source === '') this.addRow(name, labels, value)
  }

  private addRow(name: string, labels: string, by: number) {
    const k = key(name, labels)
    const c = this.counters.get(k)
    if (c) c.value += by
    else this.counters.set(k, { name, labels, value: by })
  }
}

/** A source's gauges as rows: the marker that clears what it wrote before, then each current value. */
export function gaugeRows(source: string, gauges: readonly GaugeValue[], expires: number | null): MetricRow[] {
  const rows: MetricRow[] = [[source, '', '[]', 0, expires]]
  for (const g of gauges) rows.push([source, g.family.name, JSON.stringify(g.values), g.value, expires])
  return rows
}
