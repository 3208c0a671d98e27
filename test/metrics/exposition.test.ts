// The text exposition format as Go's client writes it: families and series sorted, label pairs in name order with a
// histogram's le last, escaping, cumulative buckets filled in, unknown rows ignored.
import { describe, expect, it } from 'vitest'
import { renderExposition } from '../../src/metrics/exposition'
import { commitBatchSize, durableObjectWakes, flowcontrolRejected } from '../../src/metrics/definitions'
import { gaugeRows, MetricDeltas } from '../../src/metrics/metric-deltas'

/** Rows as the metrics table sums them, from deltas drained (source '' rows only). */
const rowsOf = (d: MetricDeltas) => d.drain().map(([, name, labels, value]) => ({ name, labels, value }))

describe('renderExposition', () => {
  it('writes HELP and TYPE once per family, families by name, series by label values', () => {
    const d = new MetricDeltas()
    d.add(durableObjectWakes, ['WatchHub'])
    d.add(durableObjectWakes, ['ClusterObject'], 2)
    d.add(flowcontrolRejected, ['kubeflare-per-identity', 'user', 'rate-limited'])
    expect(renderExposition(rowsOf(d))).toBe(
      '# HELP apiserver_flowcontrol_rejected_requests_total [BETA] Number of requests rejected by API Priority and Fairness subsystem\n' +
        '# TYPE apiserver_flowcontrol_rejected_requests_total counter\n' +
        'apiserver_flowcontrol_rejected_requests_total{flow_schema="user",priority_level="kubeflare-per-identity",reason="rate-limited"} 1\n' +
        '# HELP kubeflare_durable_object_wakes_total Number of times a Durable Object was constructed (first start, or waking after hibernation or eviction), by class.\n' +
        '# TYPE kubeflare_durable_object_wakes_total counter\n' +
        'kubeflare_durable_object_wakes_total{class="ClusterObject"} 2\n' +
        'kubeflare_durable_object_wakes_total{class="WatchHub"} 1\n',
    )
  })

  it('writes a histogram as cumulative buckets with le last, then _sum and _count', () => {
    const d = new MetricDeltas()
    d.observe(commitBatchSize, ['NamespaceObject'], 1)
    d.observe(commitBatchSize, ['NamespaceObject'], 3, 2)
    d.observe(commitBatchSize, ['NamespaceObject'], 1000)
    const text = renderExposition(rowsOf(d))
    expect(text.split('\n').slice(2).join('\n')).toBe(
      [
        'kubeflare_d1_commit_batch_size_bucket{class="NamespaceObject",le="1"} 1',
        'kubeflare_d1_commit_batch_size_bucket{class="NamespaceObject",le="2"} 1',
        'kubeflare_d1_commit_batch_size_bucket{class="NamespaceObject",le="4"} 3',
        'kubeflare_d1_commit_batch_size_bucket{class="NamespaceObject",le="8"} 3',
        'kubeflare_d1_commit_batch_size_bucket{class="NamespaceObject",le="16"} 3',
        'kubeflare_d1_commit_batch_size_bucket{class="NamespaceObject",le="32"} 3',
        'kubeflare_d1_commit_batch_size_bucket{class="NamespaceObject",le="64"} 3',
        'kubeflare_d1_commit_batch_size_bucket{class="NamespaceObject",le="128"} 3',
        'kubeflare_d1_commit_batch_size_bucket{class="NamespaceObject",le="256"} 3',
        'kubeflare_d1_commit_batch_size_bucket{class="NamespaceObject",le="+Inf"} 4',
        'kubeflare_d1_commit_batch_size_sum{class="NamespaceObject"} 1007',
        'kubeflare_d1_commit_batch_size_count{class="NamespaceObject"} 4',
        '',
      ].join('\n'),
    )
  })

  it('fills buckets missing from the table with the cumulative count below them', () => {
    const labels = (le: string) => JSON.stringify(['ClusterObject', le])
    const text = renderExposition([
      { name: 'kubeflare_d1_commit_batch_size_bucket', labels: labels('4'), value: 5 },
      { name: 'kubeflare_d1_commit_batch_size_bucket', labels: labels('+Inf'), value: 6 },
      { name: 'kubeflare_d1_commit_batch_size_count', labels: '["ClusterObject"]', value: 6 },
    ])
    expect(text).toContain('le="2"} 0\n')
    expect(text).toContain('le="8"} 5\n')
    expect(text).toContain('le="+Inf"} 6\n')
    expect(text).toContain('kubeflare_d1_commit_batch_size_sum{class="ClusterObject"} 0\n')
  })

  it('escapes label values and writes large counts as Go does', () => {
    const text = renderExposition([
      { name: 'kubeflare_durable_object_wakes_total', labels: JSON.stringify(['a"b\\c\nd']), value: 1234567 },
    ])
    expect(text).toContain('kubeflare_durable_object_wakes_total{class="a\\"b\\\\c\\nd"} 1.234567e+06\n')
  })

  it('ignores rows of unknown families, the gauge marker, and malformed labels', () => {
    const rows = gaugeRows('isolate:x', [], null).map(([, name, labels, value]) => ({ name, labels, value }))
    expect(
      renderExposition([
        ...rows,
        { name: 'nope_total', labels: '[]', value: 1 },
        { name: 'kubeflare_durable_object_wakes_total', labels: 'not json', value: 1 },
        { name: 'kubeflare_durable_object_wakes_total', labels: '["a","b"]', value: 1 },
      ]),
    ).toBe('')
  })
})

describe('MetricDeltas', () => {
  it('puts back what a failed flush took, to be added to what comes next', () => {
    const d = new MetricDeltas()
    d.add(durableObjectWakes, ['WatchHub'])
    const taken = d.drain()
    expect(d.empty).toBe(true)
    d.restore(taken)
    d.add(durableObjectWakes, ['WatchHub'])
    expect(d.drain()).toEqual([['', 'kubeflare_durable_object_wakes_total', '["WatchHub"]', 2, null]])
  })
})
